/* Calls getpid() once, through syscall(2): no C library caching. */
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	return syscall(SYS_getpid) > 0 ? 0 : 1;
}
