/* Reading target variables ($var, $var->member, @cast(...)->member).
 *
 * Generated code (codegen/target_access.cpp) turns a `->` chain into
 * nested calls of these helpers: every read of target memory goes through
 * the kernel's *_nofault copies, so a bad pointer anywhere in a chain is a
 * run-time error ("kernel read fault at 0xADDR (addr) near identifier
 * '$file' at t.stp:3:9"), never an oops. After the first fault of a handler
 * the helpers read nothing and return 0, so the rest of a chain is cheap.
 * Probe context: no sleeping, no allocation. */
#ifndef STP_TARGET_H
#define STP_TARGET_H

#include "stp_strings.h"

/* `where`: "'$file' at t.stp:3:9", a literal of the generated code;
 * `op`: "read" or "write". */
static inline void stp_tv_fault_op(struct stp_context *c, const char *op, unsigned long addr,
				   int user, const char *where)
{
	if (c->last_error)
		return;
#ifdef STP_SKIP_BADVARS
	if (op[0] == 'r')
		return; /* --skip-badvars: a faulting read gives 0, no error */
#endif
	snprintf(c->error_buf, sizeof(c->error_buf),
		 "%s %s fault at 0x%lx (addr) near identifier %s",
		 user ? "user" : "kernel", op, addr, where);
	c->error_loc = ""; /* the message names the place */
	stp_error(c, c->error_buf);
}

static inline void stp_tv_fault(struct stp_context *c, unsigned long addr, int user,
				const char *where)
{
	stp_tv_fault_op(c, "read", addr, user, where);
}

/* The unsigned integer of `size` bytes (1, 2, 4 or 8) at `addr`. */
static inline u64 stp_tv_read(struct stp_context *c, unsigned long addr, unsigned size,
			      int user, const char *where)
{
	union { u8 b; u16 h; u32 w; u64 d; } v = { .d = 0 };
	long rc;
	if (unlikely(c->last_error))
		return 0;
	switch (size) {
	case 1: rc = stp_read_nofault(&v.b, addr, 1, user); if (!rc) return v.b; break;
	case 2: rc = stp_read_nofault(&v.h, addr, 2, user); if (!rc) return v.h; break;
	case 4: rc = stp_read_nofault(&v.w, addr, 4, user); if (!rc) return v.w; break;
	default: rc = stp_read_nofault(&v.d, addr, 8, user); if (!rc) return v.d; break;
	}
	stp_tv_fault(c, addr, user, where);
	return 0;
}

/* Guru mode's `$var->member = v`: stores the low `size` bytes (1, 2, 4
 * or 8) of `val` at `addr` through the exception-table-protected
 * accessors (copy_to_kernel_nofault is not exported to modules), so a bad
 * or read-only address is a run-time error, never an oops. */
static inline void stp_tv_write(struct stp_context *c, unsigned long addr, unsigned size,
				u64 val, int user, const char *where)
{
	union { u8 b; u16 h; u32 w; u64 d; } v;
	int err = 0;
	if (unlikely(c->last_error))
		return;
	switch (size) {
	case 1: v.b = val; break;
	case 2: v.h = val; break;
	case 4: v.w = val; break;
	default: v.d = val; size = 8; break;
	}
	if (user) {
		err = copy_to_user_nofault((void __user *)addr, &v, size) ? -EFAULT : 0;
	} else {
		pagefault_disable();
		switch (size) {
		case 1: __put_kernel_nofault((u8 *)addr, &v.b, u8, fault); break;
		case 2: __put_kernel_nofault((u16 *)addr, &v.h, u16, fault); break;
		case 4: __put_kernel_nofault((u32 *)addr, &v.w, u32, fault); break;
		default: __put_kernel_nofault((u64 *)addr, &v.d, u64, fault); break;
		}
		goto done;
fault:
		err = -EFAULT;
done:
		pagefault_enable();
	}
	if (err)
		stp_tv_fault_op(c, "write", addr, user, where);
}

/* A bitfield of `bits` bits starting `bit` bits after `addr` (the
 * little-endian layout of x86), sign-extended when `is_signed`. */
static inline s64 stp_tv_bits(struct stp_context *c, unsigned long addr, unsigned bit,
			      unsigned bits, int is_signed, int user, const char *where)
{
	u8 b[9] = { 0 };
	unsigned n, i;
	u64 v = 0;
	addr += bit / 8;
	bit %= 8;
	n = (bit + bits + 7) / 8;
	if (unlikely(c->last_error) || bits == 0 || bits > 64 || n > sizeof(b))
		return 0;
	if (stp_read_nofault(b, addr, n, user)) {
		stp_tv_fault(c, addr, user, where);
		return 0;
	}
	for (i = 0; i < n && i < 8; i++)
		v |= (u64)b[i] << (8 * i);
	v >>= bit;
	if (n == 9)
		v |= (u64)b[8] << (64 - bit);
	if (bits < 64) {
		v &= (1ULL << bits) - 1;
		if (is_signed && (v & (1ULL << (bits - 1))))
			v |= ~((1ULL << bits) - 1);
	}
	return (s64)v;
}

/* Pretty printing ($var$, $$parms) appends to a MAXSTRINGLEN buffer with
 * stp_appendf() (stp_strings.h), cutting at its end. */

/* Appends the string at `addr`, quoted and escaped; an unreadable one as
 * its address (a NULL or stale `char *` is common in structures). */
static inline void stp_tv_append_string(char *buf, unsigned long addr, long max, int user)
{
	char *s = stp_scratch();
	long len = max + 1 < MAXSTRINGLEN ? max + 1 : MAXSTRINGLEN;
	size_t n = strnlen(buf, MAXSTRINGLEN - 1);
	long room = MAXSTRINGLEN - 1 - (long)n;
	if (stp_copy_string(s, addr, len, user) < 0) {
		stp_appendf(buf, "0x%lx", addr);
		return;
	}
	if (room < 8) /* no room for even "\"...\"" */
		return;
	stp_text_str(buf + n, s, room - 5, 1);
}

#endif /* STP_TARGET_H */
