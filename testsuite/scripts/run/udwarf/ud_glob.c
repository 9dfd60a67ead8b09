/* A program (and its library, ud_glob_lib.c) whose globals, file statics
 * and untyped pointers user probes read with @cast, @var and $name: it
 * writes, to the file argv[1], the values the test script prints from the
 * probes, in the same format, so the two can be compared line for line. */
#include <stdio.h>

struct rec {
	long id;
	char name[12];
	struct rec *next;
};

struct rec second = { 2, "second", NULL };
struct rec first = { 1, "first", &second };  /* a global this file defines */
static int file_counter = 100;               /* a file static */
extern int shadowed;                         /* declared, as a header would, */
int shadowed = 5;                            /* then defined: hidden by step()'s parameter */

extern int other_total;                      /* ud_glob_total.c */
int lib_count_now(void);                     /* ud_glob_lib.c */
int lib_level(void);
void lib_touch(int n);

static FILE *out;

/* Keeps the compiler from folding values the probes must see. */
__attribute__((noinline)) void mark(long n)
{
	__asm__ volatile("" : : "r"(n) : "memory");
}

/* An untyped handle, as a C API passes one: @cast gives it its type. */
__attribute__((noinline)) void take(long handle)
{
	const struct rec *r = (const struct rec *)handle;

	fprintf(out, "take: id=%ld name=%s next=%s counter=%d\n", r->id, r->name,
		r->next ? r->next->name : "-", file_counter);
	file_counter++;
	mark(handle);
}

/* `shadowed` here is the parameter, not the global. */
__attribute__((noinline)) int step(int shadowed)
{
	fprintf(out, "step: shadowed=%d global first.id=%ld\n", shadowed, first.id);
	mark(shadowed);
	return shadowed + 1;
}

/* The global `shadowed`, one another file defines, and the library's
 * level as this process sees it. */
__attribute__((noinline)) void globals(void)
{
	fprintf(out, "globals: shadowed=%d first.name=%s other_total=%d lib_level=%d\n", shadowed,
		first.name, other_total, lib_level());
	mark(shadowed);
}

/* A label inside a loop: .label("again") fires each time it is passed. */
__attribute__((noinline)) int labelled(int n)
{
	volatile int i = 0;
	int sum = 0;

again:
	mark(i);
	fprintf(out, "label: n=%d i=%d\n", n, i);
	sum += i;
	if (++i < n)
		goto again;
	return sum;
}

int main(int argc, char **argv)
{
	int before;

	out = fopen(argc > 1 ? argv[1] : "/dev/null", "w");
	if (!out)
		return 1;
	take((long)&first);
	take((long)&second);
	step(7);
	shadowed = 6;
	fprintf(out, "lib_touch: n=%d program's shadowed=%d counter=%d\n", 3, shadowed, file_counter);
	before = lib_count_now();
	lib_touch(3);
	fprintf(out, "lib_touch returns: lib_count at entry=%d lib_static=%d\n", before,
		lib_level() - lib_count_now());
	globals();
	labelled(2);
	fclose(out);
	return 0;
}
