/* libudg.so for ud_glob.c: a global and a file static of a library, which
 * the program's probes read with @var("name", "LIBRARY"), moved by where
 * this process loaded the library. (The program does not name lib_count:
 * a variable a PIE program names is copied into the program at load time,
 * and the program's copy is the live one, the library's a stale original.) */
int lib_count = 10;
static int lib_static = 1;

__attribute__((noinline)) void lib_touch(int n)
{
	lib_count += n;
	lib_static *= 2;
	__asm__ volatile("" : : "r"(n) : "memory");
}

__attribute__((noinline)) int lib_count_now(void)
{
	return lib_count;
}

__attribute__((noinline)) int lib_level(void)
{
	return lib_count + lib_static;
}
