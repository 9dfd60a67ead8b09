/* After a getppid() (the probes' cue), maps 4 anonymous pages, writes one
 * byte to each (4 write faults), and unmaps them. */
#include <sys/mman.h>
#include <unistd.h>

int main(void)
{
	long page = 4096;
	char *p;
	int i;

	getppid();
	p = mmap(0, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	for (i = 0; i < 4; i++)
		p[i * page] = 1;
	return munmap(p, 4 * page) ? 2 : 0;
}
