/* The program of the usymfileline() tests (ucontext_lines.stp). Each
 * close(-__LINE__) is a system call the scripts catch: it fails at once
 * (EBADF) and hands them, negated, the line it is on, the line usymline()
 * of its caller's frame must give. The other calls' lines are in the
 * scripts' expectations: outer() calls inner() on line 19, main() calls
 * outer() on line 25. Built with -fdebug-prefix-map=$PWD=/src, so its
 * DWARF names this file /src/lines_prog.c wherever it is built. */
#include <unistd.h>

volatile int sink;

__attribute__((noinline)) static void inner(void)
{
	sink += close(-__LINE__);
}

__attribute__((noinline)) static void outer(void)
{
	inner();
	sink += close(-__LINE__);
}

int main(void)
{
	outer();
	return sink == -2 ? 0 : 1;
}
