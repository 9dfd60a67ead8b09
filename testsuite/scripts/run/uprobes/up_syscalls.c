/* System calls with arguments a test can pick out: `up_syscalls N [MS]`
 * calls close(1000 + i) for i < N (each fails with EBADF), sleeping MS
 * milliseconds after each, then lseek(1234, 5678, SEEK_SET) once (EBADF). */
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int i, n = argc > 1 ? atoi(argv[1]) : 3;
	int ms = argc > 2 ? atoi(argv[2]) : 0;

	for (i = 0; i < n; i++) {
		close(1000 + i);
		if (ms)
			usleep(ms * 1000);
	}
	lseek(1234, 5678, SEEK_SET);
	return 0;
}
