/* System calls whose arguments the probes know: a write on a descriptor
 * that does not exist (it fails with EBADF before reading the buffer,
 * which the probes read themselves), and an anonymous mmap whose length
 * and page offset reach do_mmap(), a kernel function of nine arguments. */
#include <sys/mman.h>
#include <unistd.h>

int main(void)
{
	static char buf[1024] = "ABCDEFG";
	(void)!write(-12345, buf, 777);
	mmap(0, 5 * 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 7 * 4096);
	return 0;
}
