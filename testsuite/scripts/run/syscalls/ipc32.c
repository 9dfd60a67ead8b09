/* System V IPC of a 32-bit program, both ways the i386 ABI has: the ipc()
 * multiplexer (what older C libraries use) and the direct system calls
 * (since Linux 5.1). Built -m32 -static (the last -m flag wins): native
 * on the i386 kernel, compat on x86_64. */
#define _GNU_SOURCE
#include <linux/ipc.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	long id;
	unsigned long semarg = 0; /* ipc(SEMCTL) reads semctl's 4th argument here */

	id = syscall(SYS_ipc, SEMGET, IPC_PRIVATE, 1, IPC_CREAT | 0600);
	syscall(SYS_ipc, SEMCTL, id, 0, IPC_RMID, &semarg);
	id = syscall(SYS_semget, IPC_PRIVATE, 2, IPC_CREAT | 0640);
	syscall(SYS_semctl, id, 0, IPC_RMID, 0L);
	id = syscall(SYS_ipc, MSGGET, IPC_PRIVATE, IPC_CREAT | IPC_EXCL | 0600);
	syscall(SYS_ipc, MSGCTL, id, IPC_RMID, 0, 0L);
	return 0;
}
