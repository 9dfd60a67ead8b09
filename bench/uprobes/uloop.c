/* uloop N: calls probed() N times in a tight loop, in chunks of CHUNK
 * calls, and prints the nanoseconds per call of the fastest chunk. The
 * benchmark puts a uprobe (or a uretprobe) on probed(), so (ns with the
 * probe - ns without) is its cost per hit. The guest is emulated (TCG) on
 * a shared host: the fastest chunk is the estimate least disturbed. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CHUNK 2000

__attribute__((noipa)) long probed(long x)
{
	asm volatile("");
	return x + 1;
}

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000, t = 0;
	double best = -1;
	for (long i = 0; i < CHUNK; i++) /* warm up: TCG translates the loop once */
		t += probed(i);
	for (long done = 0; done < n; done += CHUNK) {
		double t0 = now_ns();
		for (long i = 0; i < CHUNK; i++)
			t += probed(i);
		double per_call = (now_ns() - t0) / CHUNK;
		if (best < 0 || per_call < best)
			best = per_call;
	}
	printf("%.1f\n", best);
	return t == 42;
}
