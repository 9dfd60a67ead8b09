/* Reports code addresses to the probes of the task/ scripts: write(-1, ADDR,
 * TAG) fails with EBADF and reads nothing, and a probe on write() prints
 * what the VMA tracker says is mapped at ADDR. The steps change the
 * process's mappings after the session started: dlopen(), mmap() and
 * munmap() of a file, dlclose(), fork() and exec().
 *
 *   tf_maps          every step
 *   tf_maps wait     creates ./tf_maps.ready, waits for SIGUSR1 (a process
 *                    that exists before the session), reports, and creates
 *                    ./tf_maps.done
 *   tf_maps exec     (run by the steps) reports its new image */
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static void report(int tag, const void *addr)
{
	if (write(-1, addr, tag) != -1)
		abort();
}

static void *libc_function(void)
{
	return dlsym(RTLD_DEFAULT, "getpid");
}

static volatile sig_atomic_t go;

static void on_usr1(int sig)
{
	go = 1;
}

int main(int argc, char **argv)
{
	void *lib, *lib_func, *mapped;
	pid_t child;
	int fd, status;

	if (argc > 1 && !strcmp(argv[1], "exec")) {
		report(20, (void *)main);
		report(21, libc_function());
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "wait")) {
		sigset_t none;
		sigemptyset(&none);
		signal(SIGUSR1, on_usr1);
		close(open("tf_maps.ready", O_CREAT | O_WRONLY, 0644));
		while (!go)
			sigsuspend(&none);
		report(30, (void *)main);
		report(31, libc_function());
		report(32, (void *)getauxval(AT_SYSINFO_EHDR));
		close(open("tf_maps.done", O_CREAT | O_WRONLY, 0644));
		return 0;
	}
	report(1, (void *)main);
	report(2, libc_function());
	report(3, (void *)getauxval(AT_SYSINFO_EHDR));
	/* glibc lists the vdso as a loaded object: a function of it */
	lib = dlopen("linux-vdso.so.1", RTLD_LAZY | RTLD_NOLOAD);
	if (!lib)
		lib = dlopen("linux-gate.so.1", RTLD_LAZY | RTLD_NOLOAD);
	report(12, lib ? dlsym(lib, "__vdso_clock_gettime") : NULL);

	lib = dlopen("./libtf.so", RTLD_NOW);
	lib_func = lib ? dlsym(lib, "tf_lib_func") : NULL;
	report(4, lib_func);

	fd = open("./libtf.so", O_RDONLY);
	mapped = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	report(5, mapped);
	munmap(mapped, 4096);
	report(6, mapped);
	close(fd);

	dlclose(lib);
	report(7, lib_func);

	child = fork();
	if (child == 0) {
		char self[4096];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		report(10, (void *)main);
		report(11, libc_function());
		if (n > 0) {
			self[n] = '\0';
			execl(self, "tf_maps", "exec", (char *)NULL);
		}
		_exit(127);
	}
	waitpid(child, &status, 0);
	report(8, (void *)main);
	return 0;
}
