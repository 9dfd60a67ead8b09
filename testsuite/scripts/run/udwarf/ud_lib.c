/* libud.so: a library whose function user DWARF probes read: a struct
 * through a pointer, a count, and a static counter (static data of a
 * library: its link-time address plus where this process loaded it). */
struct pair {
	long a;
	short b;
	char tag[8];
};

__attribute__((noinline)) long lib_sum(const struct pair *p, int n)
{
	static int lib_calls;
	long s = 0;
	int i;

	lib_calls++;
	for (i = 0; i < n; i++)
		s += p[i].a * p[i].b;
	return s + lib_calls;
}
