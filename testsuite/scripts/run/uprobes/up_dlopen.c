/* `up_dlopen LIB N`: runs, then dlopen()s LIB (not among its needed
 * libraries) and calls its lib_twice() N times. */
#include <dlfcn.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	void *h = argc > 2 ? dlopen(argv[1], RTLD_NOW) : NULL;
	int (*twice)(int) = h ? (int (*)(int))dlsym(h, "lib_twice") : NULL;
	int i, t = 0;

	if (!twice)
		return 2;
	for (i = 0; i < atoi(argv[2]); i++)
		t += twice(i);
	return t == -1;
}
