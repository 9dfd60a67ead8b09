/* A program for the task-bound perf counter tests (perf_task*.stp): it
 * does a known number of countable things between calls of mark(phase),
 * where the scripts read @perf.
 *
 *   perf_task_prog N M   mark(1), N page faults (writes to N fresh
 *                        anonymous pages), mark(2), 5 sleeps (5 voluntary
 *                        context switches), mark(3); then a forked child
 *                        does the same with M pages
 *   perf_task_prog loop  mark(9) and a 20 ms sleep, until killed
 *
 * mark(0) first: a process's first uprobe hit maps the uprobes' page
 * (its first use is a page fault of its own), outside what is counted. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* noipa: a real call each time, its argument where the ABI puts it */
__attribute__((noipa)) void mark(int phase)
{
	asm volatile("" ::: "memory");
	(void)phase;
}

static void nap(long ms)
{
	struct timespec t = {0, ms * 1000000L};
	nanosleep(&t, NULL);
}

static int run(int pages)
{
	long size = sysconf(_SC_PAGESIZE);
	/* fresh, untouched: each first write is one fault (too small for a
	 * huge page) */
	char *buf = mmap(NULL, pages * size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int i;

	if (buf == MAP_FAILED)
		return 1;
	mark(0);
	mark(1);
	for (i = 0; i < pages; i++)
		((volatile char *)buf)[i * size] = 1;
	mark(2);
	for (i = 0; i < 5; i++)
		nap(2);
	mark(3);
	return munmap(buf, pages * size);
}

int main(int argc, char **argv)
{
	pid_t child;
	int status;

	if (argc == 2 && !strcmp(argv[1], "loop")) {
		for (;;) {
			mark(9);
			nap(20);
		}
	}
	if (argc != 3)
		return 2;
	if (run(atoi(argv[1])))
		return 1;
	child = fork();
	if (child == 0)
		_exit(run(atoi(argv[2])));
	if (child < 0 || waitpid(child, &status, 0) != child)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
