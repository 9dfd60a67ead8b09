/* Calls libup.so's lib_twice() 3 times, then forks a child that calls it
 * twice more and waits for it. */
#include <sys/wait.h>
#include <unistd.h>

int lib_twice(int x);

int main(void)
{
	int i, t = 0;
	pid_t child;

	for (i = 0; i < 3; i++)
		t += lib_twice(i);
	child = fork();
	if (child == 0) {
		t += lib_twice(10) + lib_twice(11);
		_exit(t & 1);
	}
	waitpid(child, NULL, 0);
	return t & 1;
}
