/* umask(1), umask(2) ... umask(11), then umask(0): prints what each call
 * returned (the mask before it), in octal. Through syscall(2), a real
 * function call, so the registers the probe rewrites are not assumed to
 * survive it. */
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	long k;
	syscall(SYS_umask, 0);
	for (k = 1; k <= 12; k++)
		printf(k > 1 ? " %lo" : "%lo", (long)syscall(SYS_umask, k == 12 ? 0 : k));
	printf("\n");
	return 0;
}
