/* ptrace_hold: keeps a task stopped by ptrace at the exit of a PROT_EXEC
 * file mmap() made while a session runs (the task finder queues task work
 * at that exit).
 *
 * The child stops itself at once; when ./go appears (made by the session's
 * -c command), the child maps this program's file and is held at that
 * mmap()'s system call exit (PTRACE_GET_SYSCALL_INFO); ./held is created;
 * when ./release appears the child is let go, and the program exits when
 * it has. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void wait_for_file(const char *name)
{
	while (access(name, F_OK) != 0)
		usleep(20000);
}

int main(void)
{
	struct __ptrace_syscall_info info; /* glibc's name */
	long mmap_nr = -1;
	int status;
	pid_t child = fork();

	if (child == 0) {
		int fd;
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
		fd = open("/proc/self/exe", O_RDONLY);
		if (mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0) == MAP_FAILED)
			_exit(1);
		_exit(0);
	}
	waitpid(child, &status, 0);
	ptrace(PTRACE_SETOPTIONS, child, NULL, (void *)PTRACE_O_TRACESYSGOOD);
	wait_for_file("go");
	for (;;) {
		ptrace(PTRACE_SYSCALL, child, NULL, NULL);
		if (waitpid(child, &status, 0) != child || !WIFSTOPPED(status))
			return 1;
		if (WSTOPSIG(status) != (SIGTRAP | 0x80) ||
		    ptrace(PTRACE_GET_SYSCALL_INFO, child, (void *)sizeof(info), &info) <= 0)
			continue;
		if (info.op == PTRACE_SYSCALL_INFO_ENTRY)
			mmap_nr = (long)info.entry.nr;
		else if (info.op == PTRACE_SYSCALL_INFO_EXIT &&
			 (mmap_nr == SYS_mmap
#ifdef SYS_mmap2
			  || mmap_nr == SYS_mmap2
#endif
			  ))
			break;
	}
	close(open("held", O_CREAT | O_WRONLY, 0644));
	printf("held at mmap's exit\n");
	fflush(stdout);
	wait_for_file("release");
	ptrace(PTRACE_DETACH, child, NULL, NULL);
	waitpid(child, &status, 0);
	printf("child exited %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return 0;
}
