/* Facts about the current task's user space, for the user memory
 * readers and writers of the tapset library. */
#ifndef STP_USER_H
#define STP_USER_H

#include <linux/sched.h>
#include <asm/ptrace.h>

/* The size of a C long (and pointer) in the current task: 4 in a 32-bit
 * program, also on x86_64. */
static inline int stp_user_long_size(void)
{
#ifdef CONFIG_X86_64
	if (current->mm && !(current->flags & PF_KTHREAD) &&
	    !user_64bit_mode(task_pt_regs(current)))
		return 4;
#endif
	return sizeof(long);
}

#endif /* STP_USER_H */
