/* mapmix MODE N: N operations of MODE in chunks of CHUNK, and the
 * nanoseconds per operation of the fastest chunk (the guest is emulated on
 * a shared host: the fastest chunk is the least disturbed estimate).
 *   getppid  a system call the task finder's sys_exit hook must ignore
 *   anon     mmap() + munmap() of 64 KiB of anonymous memory (filtered out
 *            against the snapshot, as malloc's large blocks are)
 *   exec     mmap() + munmap() of this program's file, PROT_EXEC: two
 *            rescans of the address space with the tracker */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define CHUNK 500

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int fd;

static void op(const char *mode)
{
	void *p;
	if (!strcmp(mode, "getppid")) {
		syscall(SYS_getppid);
		return;
	}
	if (!strcmp(mode, "anon"))
		p = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	else
		p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		exit(1);
	munmap(p, strcmp(mode, "anon") ? 4096 : 65536);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "getppid";
	long n = argc > 2 ? atol(argv[2]) : 20000;
	double best = -1;

	fd = open("/proc/self/exe", O_RDONLY);
	for (long i = 0; i < CHUNK; i++) /* warm up */
		op(mode);
	for (long done = 0; done < n; done += CHUNK) {
		double t0 = now_ns();
		for (long i = 0; i < CHUNK; i++)
			op(mode);
		double per = (now_ns() - t0) / CHUNK;
		if (best < 0 || per < best)
			best = per;
	}
	printf("%.1f\n", best);
	return 0;
}
