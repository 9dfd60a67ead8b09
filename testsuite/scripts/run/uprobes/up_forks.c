/* Process events: `up_forks` starts two threads and joins them, forks a
 * child that execs `up_forks exec` (which exits at once), forks a child
 * that exits at once, and waits for both. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void *thread_main(void *arg)
{
	return arg;
}

int main(int argc, char **argv)
{
	pthread_t t[2];
	pid_t a, b;
	int i;

	if (argc > 1 && !strcmp(argv[1], "exec"))
		return 0;
	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, thread_main, NULL);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	a = fork();
	if (a == 0) {
		execl(argv[0], argv[0], "exec", (char *)NULL);
		_exit(127);
	}
	waitpid(a, NULL, 0);
	b = fork();
	if (b == 0)
		_exit(0);
	waitpid(b, NULL, 0);
	return 0;
}
