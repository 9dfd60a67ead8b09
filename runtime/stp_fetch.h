/* Register and memory fetches, what the kprobe event tracer's fetchargs
 * offer: register("ax") / u_register() (tapsets/registers.stp),
 * @kregister(N) / @uregister(N) (DWARF numbers), @kderef(SIZE, ADDR) /
 * @uderef(SIZE, ADDR), the *_arg(N) functions and returnval().
 *
 * Nothing here knows an architecture: the registers, their DWARF numbers
 * and the calling conventions are the translator's per-arch table
 * (translator/arch/arch.cpp), which each module defines as the STP_*
 * macros just before including this (translator/codegen/arch_c.cpp).
 *
 * Probe context: no sleeping, bounded work (a name lookup walks a table
 * of a few dozen entries), and memory is only read through the nofault
 * copies, so a bad address is a run-time error, never an oops. */
#ifndef STP_FETCH_H
#define STP_FETCH_H

#include <linux/ptrace.h>
#include <linux/sched/task_stack.h>
#include "stp_strings.h"

/* A name register() accepts: the pt_regs field that holds it, and which
 * of its bytes the name means ("eax": 4 bytes of ax; "ah": 1, 8 bits up). */
struct stp_reg_name {
	const char *name;
	unsigned short offset;     /* in struct pt_regs */
	unsigned char field_size;  /* of that field */
	unsigned char size, shift; /* bytes meant, and from which bit */
};

/* A pt_regs field's offset, and offset and size, for the tables. */
#define STP_OFF(field) offsetof(struct pt_regs, field)
#define STP_PT(field) offsetof(struct pt_regs, field), sizeof(((struct pt_regs *)0)->field)

static const struct stp_reg_name stp_reg_names[] = STP_REG_NAMES;
/* By DWARF register number; name == NULL for numbers the arch lacks. */
static const struct stp_reg_name stp_dwarf_regs[] = STP_DWARF_REGS;
/* Offsets of the argument registers, in order. */
static const unsigned short stp_kernel_arg_regs[] = STP_KERNEL_ARG_REGS;
static const unsigned short stp_user_arg_regs[] = STP_USER_ARG_REGS;
#ifdef STP_COMPAT
static const unsigned short stp_compat_user_arg_regs[] = STP_COMPAT_USER_ARG_REGS;
static const unsigned short stp_compat_regparm_regs[] = STP_COMPAT_REGPARM_REGS;
#endif

static inline unsigned long stp_pt_field(const struct pt_regs *regs, unsigned offset, unsigned size)
{
	const char *p = (const char *)regs + offset;
	switch (size) {
	case 1: return *(const u8 *)p;
	case 2: return *(const u16 *)p;
	case 4: return *(const u32 *)p;
	default: return *(const unsigned long *)p;
	}
}

/* `v`'s low `bytes`, sign- or zero-extended to 64 bits. */
static inline s64 stp_extend(u64 v, unsigned bytes, bool sign)
{
	unsigned bits = bytes * 8;
	if (bits >= 64)
		return v;
	v &= (1ULL << bits) - 1;
	if (sign && (v >> (bits - 1)))
		v |= ~0ULL << bits;
	return v;
}

static inline s64 stp_reg_value(const struct pt_regs *regs, const struct stp_reg_name *r, bool sign)
{
	return stp_extend(stp_pt_field(regs, r->offset, r->field_size) >> r->shift, r->size, sign);
}

/* The probe's own registers when they are the kernel's (kprobes, a
 * profile tick in the kernel), else NULL. */
static inline struct pt_regs *stp_kernel_regs(struct stp_context *c)
{
	return c->regs && !user_mode(c->regs) ? c->regs : NULL;
}

/* The current task's user registers: the probe's own in user mode
 * (uprobes, a profile tick in a program), else those the task saved when
 * it entered the kernel; NULL in a kernel thread. */
static inline struct pt_regs *stp_user_regs(struct stp_context *c)
{
	if (c->regs && user_mode(c->regs))
		return c->regs;
	if (current->flags & PF_KTHREAD)
		return NULL;
	return task_pt_regs(current);
}

/* A 32-bit program on a 64-bit kernel, in user mode at `regs`. */
static inline bool stp_compat_regs(const struct pt_regs *regs)
{
#ifdef STP_COMPAT
	/* Neither helper writes; only user_64bit_mode() says so in its type. */
	return user_mode((struct pt_regs *)regs) && !user_64bit_mode((struct pt_regs *)regs);
#else
	return false;
#endif
}

/* register(NAME), u_register(NAME): the probe's registers, kernel or
 * user, as SystemTap reads them. */
static inline s64 stp_register(struct stp_context *c, const char *name, bool sign)
{
	unsigned i;
	if (!c->regs) {
		stp_error(c, "cannot access CPU registers in this context");
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(stp_reg_names); i++)
		if (strcmp(stp_reg_names[i].name, name) == 0)
			return stp_reg_value(c->regs, &stp_reg_names[i], sign);
	snprintf(c->error_buf, sizeof(c->error_buf), "Unknown register: %s", name);
	stp_error(c, c->error_buf);
	return 0;
}

/* @kregister(N), @uregister(N): DWARF register N of the kernel's or the
 * user's registers, zero-extended. */
static inline s64 stp_dwarf_register(struct stp_context *c, s64 n, bool user)
{
	struct pt_regs *regs = user ? stp_user_regs(c) : stp_kernel_regs(c);
	if (!regs) {
		stp_error(c, user ? "cannot access user registers in this context"
				  : "cannot access kernel registers in this context");
		return 0;
	}
	if (n < 0 || n >= (s64)ARRAY_SIZE(stp_dwarf_regs) || !stp_dwarf_regs[n].name) {
		snprintf(c->error_buf, sizeof(c->error_buf), "no DWARF register %lld", (long long)n);
		stp_error(c, c->error_buf);
		return 0;
	}
	return stp_reg_value(regs, &stp_dwarf_regs[n], false);
}

/* @kderef(SIZE, ADDR), @uderef(SIZE, ADDR): SIZE (1, 2, 4 or 8: checked
 * by the translator) bytes at ADDR, zero-extended. */
static inline s64 stp_deref(struct stp_context *c, unsigned size, s64 addr, bool user)
{
	union { u8 b; u16 w; u32 l; u64 q; } v = { .q = 0 };
	if (stp_read_nofault(&v, (unsigned long)addr, size, user)) {
		snprintf(c->error_buf, sizeof(c->error_buf), "%s read fault at 0x%lx",
			 user ? "user" : "kernel", (unsigned long)addr);
		stp_error(c, c->error_buf);
		return 0;
	}
	switch (size) {
	case 1: return v.b;
	case 2: return v.w;
	case 4: return v.l;
	default: return v.q;
	}
}

/* ---- function arguments: *_arg(N), asmlinkage(), regparm(N) ---- */

/* c->regparm: 0 for the default convention, else STP_REGPARM | N. */
#define STP_REGPARM 0x80
#define STP_REGPARM_MASK 0x7f

/* Argument slot `n` (1-based) of the function the probe is at the entry
 * of, `*size` bytes wide: one of the convention's argument registers, or
 * the stack above the return address. 0, or -1 after reporting the error. */
static inline int stp_arg_slot(struct stp_context *c, long n, u64 *out, unsigned *size)
{
	const struct pt_regs *regs = c->regs;
	const unsigned short *arg_regs;
	unsigned nregs, nmax;
	bool user;
	unsigned long addr, v = 0;

	if (!regs) {
		stp_error(c, "cannot access function args in this context");
		return -1;
	}
	user = user_mode((struct pt_regs *)regs); /* it only reads */
	*size = sizeof(long);
	if (user) {
		arg_regs = stp_user_arg_regs;
		nmax = nregs = ARRAY_SIZE(stp_user_arg_regs);
	} else {
		arg_regs = stp_kernel_arg_regs;
		nmax = nregs = ARRAY_SIZE(stp_kernel_arg_regs);
	}
#ifdef STP_COMPAT
	if (stp_compat_regs(regs)) {
		*size = 4;
		arg_regs = stp_compat_user_arg_regs;
		nregs = ARRAY_SIZE(stp_compat_user_arg_regs);
		if (c->regparm)
			arg_regs = stp_compat_regparm_regs;
		nmax = ARRAY_SIZE(stp_compat_regparm_regs);
	}
#endif
	if (STP_ARCH_REGPARM && user && c->regparm) {
		arg_regs = stp_kernel_arg_regs; /* regparm order: ax, dx, cx */
		nmax = ARRAY_SIZE(stp_kernel_arg_regs);
	}
	if (c->regparm)
		nregs = min_t(unsigned, c->regparm & STP_REGPARM_MASK, nmax);
	if (n < 1) {
		snprintf(c->error_buf, sizeof(c->error_buf), "cannot access arg(%ld)", n);
		stp_error(c, c->error_buf);
		return -1;
	}
	if (n <= nregs) {
		*out = stp_extend(stp_pt_field(regs, arg_regs[n - 1], sizeof(long)), *size, false);
		return 0;
	}
	/* At a function's entry the return address is at sp, the stack
	 * arguments above it. */
	addr = stp_pt_field(regs, STP_REG_SP, sizeof(long)) + (n - nregs) * *size;
	if (stp_read_nofault(&v, addr, *size, user)) {
		snprintf(c->error_buf, sizeof(c->error_buf), "%s fault at 0x%lx accessing arg(%ld)",
			 user ? "user" : "kernel", addr, n);
		stp_error(c, c->error_buf);
		return -1;
	}
	*out = stp_extend(v, *size, false);
	return 0;
}

enum stp_arg_kind {
	STP_ARG_S32,    /* int_arg, s32_arg */
	STP_ARG_U32,    /* uint_arg, u32_arg */
	STP_ARG_LONG,   /* long_arg */
	STP_ARG_ULONG,  /* ulong_arg, pointer_arg */
	STP_ARG_S64,    /* longlong_arg, ulonglong_arg, s64_arg, u64_arg */
};

/* Argument `n` as `kind`. A 64-bit value of a 32-bit convention takes
 * two slots, low half first, as in SystemTap. */
static inline s64 stp_arg(struct stp_context *c, long n, enum stp_arg_kind kind)
{
	u64 v, hi;
	unsigned size;
	if (stp_arg_slot(c, n, &v, &size))
		return 0;
	switch (kind) {
	case STP_ARG_S32: return stp_extend(v, 4, true);
	case STP_ARG_U32: return stp_extend(v, 4, false);
	case STP_ARG_LONG: return stp_extend(v, size, true);
	case STP_ARG_ULONG: return stp_extend(v, size, false);
	default:
		if (size == 8)
			return v;
		if (stp_arg_slot(c, n + 1, &hi, &size))
			return 0;
		return (s64)(hi << 32 | v);
	}
}

/* regparm(N): the first N arguments in registers (the convention's
 * order); 0 to 3 on i386 and for 32-bit programs, to 6 on x86_64. */
static inline void stp_set_regparm(struct stp_context *c, s64 n)
{
	s64 max = ARRAY_SIZE(stp_kernel_arg_regs);
#ifdef STP_COMPAT
	if (c->regs && stp_compat_regs(c->regs))
		max = ARRAY_SIZE(stp_compat_regparm_regs);
#endif
	if (n < 0 || n > max) {
		snprintf(c->error_buf, sizeof(c->error_buf),
			 "regparm value must be in the range 0-%lld", (long long)max);
		stp_error(c, c->error_buf);
		return;
	}
	c->regparm = STP_REGPARM | (unsigned char)n;
}

/* returnval(): the return register of the probe's registers, or what
 * set_returnval() (--compatible<=4.0) gave it in this hit. */
static inline s64 stp_returnval(struct stp_context *c)
{
	if (unlikely(c->returnval_set))
		return c->returnval_override;
	if (!c->regs) {
		stp_error(c, "returnval() not defined in this context");
		return 0;
	}
	/* a 32-bit program's eax at a user return probe is its int */
	if (stp_compat_regs(c->regs))
		return (s32)stp_pt_field(c->regs, STP_REG_RETURN, sizeof(long));
	return (long)stp_pt_field(c->regs, STP_REG_RETURN, sizeof(long));
}

#endif /* STP_FETCH_H */
