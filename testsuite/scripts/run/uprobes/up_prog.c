/* A program for user-space probe tests: small functions called a known
 * number of times, with arguments in registers and on the stack, and a
 * recursion. `up_prog N` calls add() N times; `up_prog N MS` sleeps MS
 * milliseconds after each. Built -O2 -g (some tests
 * also -fomit-frame-pointer, -m32). */
#include <stdlib.h>
#include <unistd.h>

/* noipa: called, never inlined or specialised; the empty asm keeps each
 * body a real function */
__attribute__((noipa)) long add(long a, long b)
{
	asm volatile("");
	return a + b;
}

__attribute__((noipa)) long negate(long x)
{
	asm volatile("");
	return -x;
}

__attribute__((noipa)) long sum8(long a, long b, long c, long d, long e, long f, long g,
				 long h)
{
	asm volatile("");
	return a + b + c + d + e + f + g + h;
}

__attribute__((noipa)) unsigned fact(unsigned n)
{
	unsigned r;
	if (n <= 1)
		return 1;
	r = fact(n - 1);
	asm volatile("" : "+r"(r)); /* no accumulator loop: a real recursion */
	return n * r;
}

int main(int argc, char **argv)
{
	long t = 0;
	int i, n = argc > 1 ? atoi(argv[1]) : 5;
	int ms = argc > 2 ? atoi(argv[2]) : 0;

	for (i = 0; i < n; i++) {
		t += add(i, 10);
		if (ms)
			usleep(ms * 1000);
	}
	t += negate(7);
	t += sum8(1, 2, 3, 4, 5, 6, 7, 8);
	t += fact(5);
	return t == 12345;
}
