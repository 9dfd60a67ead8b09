/* SDT markers (sys/sdt.h) for the .mark tests: arguments of several sizes
 * and signs, in registers, memory and constants; sdt_guarded.c has one
 * with a semaphore. */
#include <sys/sdt.h>
#include <stdlib.h>

void guarded(int i); /* sdt_guarded.c: a marker with a semaphore */

volatile long counter = 1000; /* a memory operand: counter(%rip) or counter */

__attribute__((noipa)) void work(int i, long long big, char c)
{
	STAP_PROBE3(up, step, i, big, c);
	guarded(i);
	counter += i;
	STAP_PROBE2(up, global, counter, -5);
}

int main(int argc, char **argv)
{
	int i, n = argc > 1 ? atoi(argv[1]) : 3;

	STAP_PROBE(up, start);
	for (i = 0; i < n; i++)
		work(i - 1, 1LL << 40 | i, (char)('a' + i));
	STAP_PROBE1(up, done, n);
	return 0;
}
