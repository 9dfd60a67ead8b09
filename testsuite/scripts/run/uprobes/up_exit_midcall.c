/* Processes that exit in the middle of a call: each child of the loop
 * descends `i` frames (so each is deeper than the last) and exits inside
 * stuck(), whose return probe then never runs; afterwards the parent calls
 * normal() a few times, whose return probes must all run. */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) void stuck(int depth)
{
	__asm__ volatile("" : : "r"(depth) : "memory");
	_exit(0);
}

__attribute__((noinline)) int descend(int n, int depth)
{
	volatile char frame[32]; /* read after the call: one real frame each */

	frame[0] = (char)n;
	if (n == 0) {
		stuck(depth);
		return 0;
	}
	return descend(n - 1, depth) + frame[0];
}

__attribute__((noinline)) int normal(int x)
{
	__asm__ volatile("" : : "r"(x) : "memory");
	return x * 2;
}

int main(int argc, char **argv)
{
	int children = argc > 1 ? atoi(argv[1]) : 40;
	int i, sum = 0;

	for (i = 0; i < children; i++) {
		pid_t p = fork();
		if (p == 0)
			descend(i, i);
		waitpid(p, NULL, 0);
	}
	for (i = 1; i <= 5; i++)
		sum += normal(i);
	return sum == 30 ? 0 : 1;
}
