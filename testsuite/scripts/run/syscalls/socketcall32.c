/* Socket calls of a 32-bit program, both ways the i386 ABI has: the
 * socketcall() multiplexer and the direct system calls (i386 has had
 * socket, connect... since Linux 4.3). Built -m32 -static (the last -m
 * flag wins): native on the i386 kernel, compat on x86_64. */
#define _GNU_SOURCE
#include <linux/net.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

int main(void)
{
	struct sockaddr_un sun;
	unsigned long args[3];
	long fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	strcpy(sun.sun_path, "/nonexistent.sock");

	args[0] = AF_UNIX, args[1] = SOCK_STREAM | SOCK_CLOEXEC, args[2] = 0;
	fd = syscall(SYS_socketcall, SYS_SOCKET, args);
	args[0] = fd, args[1] = (unsigned long)&sun, args[2] = sizeof(sun);
	syscall(SYS_socketcall, SYS_CONNECT, args);
	syscall(SYS_connect, fd, &sun, sizeof(sun));
	syscall(SYS_close, fd);
	return 0;
}
