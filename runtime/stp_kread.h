/* Reading kernel objects at script-supplied addresses (task_*(), the
 * task_struct pointers scripts pass around): every field is copied with
 * copy_from_kernel_nofault, so a stale or bogus pointer is a run-time
 * error, never an oops. Probe context: no sleeping, no allocation. */
#ifndef STP_KREAD_H
#define STP_KREAD_H

#include <linux/build_bug.h>
#include <linux/uaccess.h>

/* Copies `size` bytes at kernel address `src` into `dst`; on a fault
 * reports "kernel read fault at 0xADDR" as the handler's error and returns
 * -EFAULT (the caller then returns at once: the handler is ending). */
static inline int stp_kread_bytes(struct stp_context *c, void *dst, const void *src, size_t size)
{
	if (!copy_from_kernel_nofault(dst, src, size))
		return 0;
	snprintf(c->error_buf, sizeof(c->error_buf), "kernel read fault at 0x%lx",
		 (unsigned long)src);
	stp_error(c, c->error_buf);
	return -EFAULT;
}

/* STP_KREAD(c, var, &obj->field): var = obj->field, read without faulting.
 * The sizes must agree: a wrong-typed destination does not compile. */
#define STP_KREAD(c, dst, src) ({					\
	BUILD_BUG_ON(sizeof(dst) != sizeof(*(src)));			\
	stp_kread_bytes((c), &(dst), (src), sizeof(dst));		\
})

#endif /* STP_KREAD_H */
