/* hitloop N [lseek]: makes N getppid() system calls (or, with `lseek`,
 * N lseek(-1, 0, SEEK_SET) calls, which fail at once with EBADF but have
 * arguments for a syscall probe's argstr to decode) in a tight loop, in
 * chunks of CHUNK calls, and prints the nanoseconds per call of the
 * fastest chunk. The benchmark probes the system call's entry point, so (ns with a probe - ns
 * without) is the probe's cost per hit. getppid does almost nothing, and
 * nothing else in the guest calls it in a loop. The guest is emulated (TCG)
 * on a shared host, so other load slows chunks down at random: the
 * fastest chunk is the estimate least disturbed by it. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define CHUNK 5000

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000;
	int lseek_mode = argc > 2 && argv[2][0] == 'l';
	double best = -1;
	for (long i = 0; i < CHUNK; i++) /* warm up: TCG translates the loop once */
		lseek_mode ? syscall(SYS_lseek, -1, 0, 0) : syscall(SYS_getppid);
	for (long done = 0; done < n; done += CHUNK) {
		double t0 = now_ns();
		if (lseek_mode)
			for (long i = 0; i < CHUNK; i++)
				syscall(SYS_lseek, -1, 0, 0);
		else
			for (long i = 0; i < CHUNK; i++)
				syscall(SYS_getppid); /* not the libc wrapper: it could be cached */
		double per_call = (now_ns() - t0) / CHUNK;
		if (best < 0 || per_call < best)
			best = per_call;
	}
	printf("%.1f\n", best);
	return 0;
}
