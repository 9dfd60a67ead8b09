/* A program whose functions user DWARF probes read: it writes, to the file
 * named by argv[1], the values the test script prints from the probes, in
 * the same format, so the two can be compared line for line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct point {
	int x, y;
};

struct rec {
	long id;
	char name[16];
	struct point pt;
	struct point *next_pt;
	int vals[4];
	unsigned flags : 3;
	short small;
};

static FILE *out;

/* Keeps the compiler from folding values the probes must see. */
__attribute__((noinline)) void mark(int n)
{
	__asm__ volatile("" : : "r"(n) : "memory");
}

__attribute__((noinline)) long scale(struct rec *r, int factor)
{
	static int calls; /* static data: DW_OP_addr, moved by the load bias */

	fprintf(out, "scale: id=%ld name=%s pt=%d,%d next.y=%d vals[2]=%d flags=%u small=%d factor=%d calls=%d\n",
		r->id, r->name, r->pt.x, r->pt.y, r->next_pt->y, r->vals[2], r->flags, r->small,
		factor, calls);
	calls++;
	return r->id * factor + r->pt.x;
}

__attribute__((noinline)) long ud_add(long a, long b)
{
	mark(0);
	return a + b;
}

__attribute__((noinline)) int count_chars(const char *s, char c)
{
	int n = 0;

	for (; *s; s++)
		n += *s == c;
	return n;
}

__attribute__((noinline)) int fact(int n)
{
	int r = n <= 1 ? 1 : n * fact(n - 1);

	fprintf(out, "fact(%d) -> %d\n", n, r);
	return r;
}

static inline __attribute__((always_inline)) int twice_inline(int v)
{
	mark(v);
	return v * 2;
}

__attribute__((noinline)) int use_inline(int v)
{
	return twice_inline(v + 1) + 1;
}

__attribute__((noinline)) int lines(int a)
{
	/* volatile: each line's code stays on its line (and b in the frame,
	 * found through the CFA without a frame pointer) */
	volatile int b = a * 7;

	mark(b);
	fprintf(out, "line: a=%d b=%d\n", a, b);
	b += a; /* the statement probe's line: after mark(b), before mark(b + 1) */
	mark(b + 1);
	return b;
}

__attribute__((noinline)) long bad_pointer(struct rec *r)
{
	mark(1);
	return r ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct point next = { 5, 6 };
	struct rec r = { .id = 42, .name = "widget", .pt = { 3, 4 }, .next_pt = &next,
			 .vals = { 10, 20, 30, 40 }, .flags = 5, .small = -9 };
	long s;
	int i;

	out = fopen(argc > 1 ? argv[1] : "/dev/null", "w");
	if (!out)
		return 1;
	for (i = 1; i <= 2; i++) {
		s = scale(&r, i + 1);
		fprintf(out, "scale(id=%ld, factor=%d) -> %ld\n", r.id, i + 1, s);
		r.id++;
	}
	fprintf(out, "ud_add: a=%#lx b=%#lx -> %ld\n", 3L, 4L, ud_add(3, 4));
	fprintf(out, "count_chars: s=%s c=%c -> %d\n", "banana", 'a', count_chars("banana", 'a'));
	fact(5);
	fprintf(out, "twice_inline: v=%d\n", 20 + 1); /* use_inline(20) inlines it with v + 1 */
	fprintf(out, "use_inline -> %d\n", use_inline(20));
	fprintf(out, "lines -> %d\n", lines(6));
	bad_pointer((struct rec *)16);
	fclose(out);
	return 0;
}
