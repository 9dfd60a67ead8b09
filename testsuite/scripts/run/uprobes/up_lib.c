/* libup.so: a shared library of ours for .library() and process("LIB")
 * probes. */
__attribute__((noipa)) int lib_twice(int x)
{
	asm volatile("");
	return 2 * x;
}
