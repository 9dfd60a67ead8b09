/* A shared library that tf_maps.c dlopen()s and maps after it started. */
int tf_lib_func(int x)
{
	return x * 3 + 1;
}
