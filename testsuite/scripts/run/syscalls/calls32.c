/* System calls with known arguments and results, for the syscall tapset's
 * tests: built -m32 -static (the last -m flag wins), so it runs natively on the i386 kernel and as
 * a compat (32-bit) program on the x86_64 one, with the same output. Raw
 * syscall() calls, so the C library picks no other call; the strings live
 * on the stack, so the pages holding them are resident when the probe
 * reads them (a probe does not fault pages in). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	char missing[] = "/nonexistent/file";
	char passwd[] = "/etc/passwd";
	char devnull[] = "/dev/null";
	char root[] = "/";
	char hello[] = "hello\n";
	char buf[64];
	struct { long sec, nsec; } ts32 = { 0, 1000 };
	long fd, out, dir;

	syscall(SYS_open, missing, O_RDONLY);
	fd = syscall(SYS_openat, AT_FDCWD, passwd, O_RDONLY | O_CLOEXEC);
	syscall(SYS_lseek, fd, 4L, SEEK_SET);
	syscall(SYS_read, fd, buf, 8L);
	/* a 64-bit offset in two registers: 2^32 + 1, past the end */
	syscall(SYS_pread64, fd, buf, 8L, 1L, 1L);
	syscall(SYS_fcntl64, fd, F_GETFD);
	out = syscall(SYS_openat, AT_FDCWD, devnull, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	syscall(SYS_write, out, hello, 6L);
	dir = syscall(SYS_open, root, O_RDONLY | O_DIRECTORY);
	syscall(SYS_getdents64, dir, buf, 0L);
	syscall(SYS_mmap2, 0L, 4096L, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1L, 0L);
	syscall(SYS_nanosleep, &ts32, 0L);
	syscall(SYS_close, dir);
	syscall(SYS_close, out);
	syscall(SYS_close, fd);
	syscall(SYS_close, 1000L);
	return 0;
}
