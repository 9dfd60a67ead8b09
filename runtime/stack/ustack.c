/* The user stack of the current task, for print_ubacktrace() and friends.
 *
 * The walk starts from the task's user registers, steps with unwind/ over
 * the unwind table of the object each pc is in (found by the VMA tracker:
 * a -d object's table, the vdso's, or none), reads the stack through
 * copy_from_user_nofault() and keeps at most MAXBACKTRACE pcs in the
 * per-CPU probe context. It never guesses: a frame is printed only when
 * the CFI proves it, and the walk stops (and -v says why) where it cannot
 * go on. Any context, no allocation, no sleeping, bounded work.
 * See docs/runtime.md, "Backtraces". */

#include <linux/sched/task_stack.h>
#include <linux/ptrace.h>
#include <linux/uprobes.h> /* return_instance: stp_uread_unhijack */

/* ---- the user registers at the probe ---- */

/* Which user registers a probe can trust, by where they come from
 * (SystemTap calls this "regflags"). Linux 6.1 saves a complete pt_regs on
 * every entry from user space: x86_64 system calls (entry_SYSCALL_64,
 * PUSH_AND_CLEAR_REGS), 32-bit system calls on x86_64 (entry_64_compat.S:
 * the same macro for int $0x80, sysenter and syscall), interrupts and
 * exceptions (idtentry), and every i386 entry (SAVE_ALL). So both sources
 * give every register; nothing needs to be scrubbed on these kernels. A
 * kernel that saved a partial frame would clear bits here. */
enum stp_uregs_source {
	STP_UREGS_PROBE, /* the probe interrupted user mode (timer.profile) */
	STP_UREGS_ENTRY, /* task_pt_regs(): the frame the task entered the kernel with
			  * (system calls, kprobes and tracepoints inside them,
			  * interrupts from user mode) */
};
static const u32 stp_uregs_valid[2][2] = {
	/*                  x86_64 (17 regs)  i386 (9 regs) */
	[STP_UREGS_PROBE] = { 0x1ffff, 0x1ff },
	[STP_UREGS_ENTRY] = { 0x1ffff, 0x1ff },
};

static void stp_uregs_i386(struct uw_regs *r, const struct pt_regs *p, u32 valid)
{
	/* DWARF i386 order: eax ecx edx ebx esp ebp esi edi eip */
	const unsigned long v[9] = { p->ax, p->cx, p->dx, p->bx, p->sp,
				     p->bp, p->si, p->di, p->ip };
	unsigned i;

	r->arch = UW_ARCH_I386;
	for (i = 0; i < 9; i++)
		r->val[i] = (u32)v[i];
	r->valid = valid;
}

#ifdef CONFIG_X86_64
static void stp_uregs_x86_64(struct uw_regs *r, const struct pt_regs *p, u32 valid)
{
	/* DWARF x86_64 order: rax rdx rcx rbx rsi rdi rbp rsp r8-r15 rip */
	const unsigned long v[17] = { p->ax, p->dx, p->cx, p->bx, p->si, p->di,
				      p->bp, p->sp, p->r8, p->r9, p->r10, p->r11,
				      p->r12, p->r13, p->r14, p->r15, p->ip };
	unsigned i;

	r->arch = UW_ARCH_X86_64;
	for (i = 0; i < 17; i++)
		r->val[i] = v[i];
	r->valid = valid;
}
#endif

/* The current task's user registers at this probe; false for kernel
 * threads (no user stack). Sets *is32 for 32-bit tasks. */
static bool stp_user_regs(struct stp_context *c, struct uw_regs *r, bool *is32)
{
	const struct pt_regs *p;
	enum stp_uregs_source src;

	if (!current->mm || (current->flags & (PF_KTHREAD | PF_IO_WORKER)))
		return false;
	if (c->regs && user_mode(c->regs)) {
		p = c->regs;
		src = STP_UREGS_PROBE;
	} else {
		p = task_pt_regs(current);
		src = STP_UREGS_ENTRY;
	}
	memset(r, 0, sizeof(*r));
	/* Both sources hold the interrupted instruction (after a system
	 * call instruction, the next one), not a return address. */
	r->flags = UW_PC_EXACT;
#ifdef CONFIG_X86_64
	if (user_64bit_mode((struct pt_regs *)p)) {
		stp_uregs_x86_64(r, p, stp_uregs_valid[src][0]);
		*is32 = false;
		return true;
	}
#endif
	stp_uregs_i386(r, p, stp_uregs_valid[src][1]);
	*is32 = true;
	return true;
}

/* The current task runs 32-bit code (i386, or compat on x86_64). */
static bool stp_task_is32(void)
{
#ifdef CONFIG_X86_64
	return current->mm && !(current->flags & PF_KTHREAD) &&
	       !user_64bit_mode(task_pt_regs(current));
#else
	return true;
#endif
}

/* ---- the memory of the unwound task ---- */

/* A return address the kernel replaced with its uretprobe trampoline (a
 * function with a return probe is running below): the real one. Each
 * pending return of the task is in utask->return_instances with the stack
 * slot it hijacked (ri->stack: the stack pointer at the function's entry)
 * and the address it saved; the trampoline is the first slot of the task's
 * uprobe area (page aligned), which checks the value read. Bounded: the
 * kernel keeps at most 64 pending returns per task. perf and bpftrace
 * replace the trampoline addresses of their stacks with the same list. */
static void stp_uread_unhijack(uw_u64 addr, void *dst, uw_u32 len)
{
#ifdef CONFIG_UPROBES
	struct uprobe_task *utask = current->utask;
	struct return_instance *ri;
	unsigned long val, n;

	if (likely(!utask || !utask->return_instances) || (len != 4 && len != 8))
		return;
	val = len == 4 ? *(u32 *)dst : (unsigned long)*(u64 *)dst;
	if (val & ~PAGE_MASK)
		return;
	for (ri = utask->return_instances, n = 0; ri && n < 128; ri = ri->next, n++) {
		if (ri->stack != (unsigned long)addr)
			continue;
		if (len == 4)
			*(u32 *)dst = (u32)ri->orig_ret_vaddr;
		else
			*(u64 *)dst = ri->orig_ret_vaddr;
		return;
	}
#endif
}

static int stp_uread(void *ctx, uw_u64 addr, void *dst, uw_u32 len)
{
	(void)ctx;
	if (addr > (u64)ULONG_MAX - len)
		return -1;
	if (copy_from_user_nofault(dst, (const void __user *)(unsigned long)addr, len))
		return -1;
	stp_uread_unhijack(addr, dst, len);
	return 0;
}

/* ---- reports: missing unwind data (once per object), -v stop reasons ---- */

#define STP_WARNED_SLOTS 64
static u32 stp_ustack_warned[STP_WARNED_SLOTS]; /* path hashes, 0 = free */
static atomic_t stp_ustack_reports = ATOMIC_INIT(0);
#define STP_USTACK_MAX_REPORTS 20

/* True the first time `path` is seen this session (a full table stops
 * the warnings rather than repeating them). */
static bool stp_ustack_first_warning(const char *path)
{
	u32 h = jhash(path, strlen(path), 0) | 1;
	unsigned i;

	for (i = 0; i < STP_WARNED_SLOTS; i++) {
		u32 old = READ_ONCE(stp_ustack_warned[i]);
		if (old == h)
			return false;
		if (old == 0) {
			old = cmpxchg(&stp_ustack_warned[i], 0, h);
			if (old == 0)
				return true;
			if (old == h)
				return false;
		}
	}
	return false;
}

static const char *stp_ustack_strstop(int stop)
{
	switch (stop) {
	case STP_USTACK_CUT: return "MAXBACKTRACE frames reached";
	case STP_USTACK_NOMAP: return "pc in no executable mapping";
	case STP_USTACK_NOTABLE: return "no unwind data for the object";
	default: return uw_strerror(stop);
	}
}

static void stp_ustack_report(const struct stp_ustack *u, const char *path)
{
	int n;

	if (u->stop == UW_END || stp_verbose <= 0)
		return;
	n = atomic_inc_return(&stp_ustack_reports);
	if (n > STP_USTACK_MAX_REPORTS)
		return;
	stp_ctl_send("warning user backtrace of pid %d stopped after %u frame%s at 0x%llx%s%s%s: %s%s",
		     task_tgid_nr(current), u->n, u->n == 1 ? "" : "s",
		     (unsigned long long)u->pc[u->n - 1], path ? " [" : "", path ? path : "",
		     path ? "]" : "", stp_ustack_strstop(u->stop),
		     n == STP_USTACK_MAX_REPORTS ? " (no more such reports)" : "");
}

/* ---- the walk ---- */

static int stp_ustack_step(struct stp_ustack *u, const struct uw_object *obj,
			   const struct uw_memory *mem)
{
	return uw_step_ws(obj, &u->regs, mem, &u->ws);
}

/* Walks the current task's user stack once per probe hit. */
static struct stp_ustack *stp_ustack_walk(struct stp_context *c)
{
	struct stp_ustack *u = &c->ustack;
	const struct uw_memory mem = { stp_uread, NULL };
	const char *stop_path = NULL;

	if (c->ustack_walked)
		return u;
	c->ustack_walked = true;
	u->n = 0;
	u->stop = UW_END;
	u->have_regs = stp_user_regs(c, &u->regs, &u->is32);
	if (!u->have_regs)
		return u;
	/* Once per CPU: the tables live as long as the module (the -d ones
	 * from session start, the vdso's from first sight), so every walk
	 * shares the rows and CIEs the earlier ones found. */
	if (!u->ws_ready) {
		uw_workspace_init(&u->ws);
		u->ws_ready = true;
	}
	for (;;) {
		u64 pc = uw_pc(&u->regs);
		bool exact = u->regs.flags & UW_PC_EXACT;
		struct uw_object obj = { NULL, 0 };
		struct stp_vma_hit hit;
		bool mapped;
		int rc;

		if (u->n == MAXBACKTRACE) {
			u->stop = STP_USTACK_CUT;
			break;
		}
		u->pc[u->n] = pc;
		u->exact[u->n] = exact;
		u->n++;
		/* the object holding the call instruction, for a return address */
		mapped = stp_vma_lookup(current, (unsigned long)(exact ? pc : pc - 1), &hit);
		if (mapped && hit.table) {
			obj.table = hit.table;
			obj.bias = (u64)hit.base - hit.table->addr_base;
		}
		/* Without a table only a signal trampoline can be stepped
		 * over (recognised by its code); anything else stops here. */
		rc = stp_ustack_step(u, &obj, &mem);
		if (rc == UW_OK)
			continue;
		if (rc == UW_ENOCFI && !obj.table) {
			rc = mapped ? STP_USTACK_NOTABLE : STP_USTACK_NOMAP;
			if (mapped && stp_ustack_first_warning(hit.path))
				stp_ctl_send("warning Missing unwind data for a module, rerun with 'stap -d %s'",
					     hit.path);
		}
		if (mapped)
			stop_path = hit.path;
		u->stop = rc;
		break;
	}
	stp_ustack_report(u, stop_path);
	return u;
}

u64 stp_ustack_pc(struct stp_context *c, unsigned n)
{
	struct stp_ustack *u = stp_ustack_walk(c);
	return n < u->n ? u->pc[n] : 0;
}

/* ---- symbols ---- */

/* What 4.8's symbol lookup gives for a user address. */
struct stp_sym {
	u64 addr;
	bool has_sym, has_mod;
	const char *name;       /* the symbol */
	u64 off, size;          /* addr - symbol start, symbol size */
	const char *module;     /* the mapped file's path ("kernel" or a module's name for kernel addresses) */
	u64 mod_off;            /* addr - the object's load address */
	const char *file;       /* the source file of addr, NULL when unknown */
	u32 line;               /* its line (with file) */
};

static bool stp_sym_form_wants_lines(enum stp_sym_form form)
{
	return form == STP_SYM_FILELINE || form == STP_SYM_FILE || form == STP_SYM_LINE;
}

/* `lookup` is where the symbol is looked up: the pc itself, or pc - 1
 * for a return address (the call may be a function's last instruction).
 * With `lines`, also its source line (4.8 looks that up at the address as
 * given too). */
static void stp_usym_lookup(struct stp_sym *s, u64 addr, u64 lookup, bool lines)
{
	struct stp_vma_hit hit;
	const char *name;
	uw_u64 start, size;

	memset(s, 0, sizeof(*s));
	s->addr = addr;
	if (!stp_vma_lookup(current, (unsigned long)lookup, &hit))
		return;
	s->has_mod = true;
	s->module = hit.path;
	s->mod_off = addr - hit.base;
	if (hit.table &&
	    !uw_table_symbol(hit.table, lookup - hit.base + hit.table->addr_base, &name, &start, &size)) {
		s->has_sym = true;
		s->name = name;
		s->off = addr - hit.base + hit.table->addr_base - start;
		s->size = size;
	}
	if (lines && hit.lines &&
	    !stp_lines_find(hit.lines, lookup - hit.base + hit.lines->addr_base, &s->file, &s->line))
		s->file = NULL;
}

/* ---- output: the probe's output, or a string as 4.8's sprint gives it ---- */

struct stp_sink {
	struct stp_context *c;
	char *str;       /* NULL: the probe's output */
	size_t len;      /* bytes in str (at most MAXSTRINGLEN - 1) */
	size_t total;    /* bytes produced */
};

static __printf(2, 3) void stp_sink_printf(struct stp_sink *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	if (!s->str) {
		stp_vprintf(s->c, fmt, ap);
	} else {
		n = vsnprintf(s->str + s->len, MAXSTRINGLEN - s->len, fmt, ap);
		if (n > 0) {
			s->total += n;
			s->len = min_t(size_t, s->len + n, MAXSTRINGLEN - 1);
		}
	}
	va_end(ap);
}

/* 4.8's sprint functions copy the printed text with strlcpy(str, text,
 * min(size, len)): the text's last byte (the final newline or space) is
 * dropped, and a longer text is cut at MAXSTRINGLEN - 1 bytes. */
static void stp_sink_finish(struct stp_sink *s)
{
	if (s->str && s->total > 0 && s->total <= MAXSTRINGLEN - 1)
		s->str[s->total - 1] = '\0';
}

static const char *stp_basename(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* "0x" and v's hex digits at p; returns the end. */
static char *stp_put_hex(char *p, u64 v)
{
	char tmp[16];
	unsigned n = 0;

	do {
		tmp[n++] = hex_asc[v & 15];
		v >>= 4;
	} while (v);
	*p++ = '0';
	*p++ = 'x';
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* print_ubacktrace()'s and print_backtrace()'s line for one frame, to
 * the probe's output without vsnprintf (under TCG its parsing of the
 * format took about a third of what a frame costs): the same text as
 * " 0x%llx : %s+%#llx/%#llx [%s]\n" or " 0x%llx [%s+%#llx]\n" (the
 * kernel's %#llx writes 0 as 0x0). */
static void stp_sym_full_out(struct stp_context *c, const struct stp_sym *s)
{
	char buf[4 + 18 + 3 + 18 + 1 + 18 + 2];
	char *p = buf;

	if (unlikely(c->last_error))
		return;
	*p++ = ' ';
	p = stp_put_hex(p, s->addr);
	if (s->has_sym) {
		*p++ = ' ';
		*p++ = ':';
		*p++ = ' ';
		stp_out_bytes(c, NULL, buf, p - buf);
		stp_out_bytes(c, NULL, s->name, strlen(s->name));
		p = buf;
		*p++ = '+';
		p = stp_put_hex(p, s->off);
		*p++ = '/';
		p = stp_put_hex(p, s->size);
		*p++ = ' ';
		*p++ = '[';
		stp_out_bytes(c, NULL, buf, p - buf);
		stp_out_bytes(c, NULL, s->module, strlen(s->module));
		stp_out_bytes(c, NULL, "]\n", 2);
	} else {
		*p++ = ' ';
		*p++ = '[';
		stp_out_bytes(c, NULL, buf, p - buf);
		stp_out_bytes(c, NULL, s->module, strlen(s->module));
		p = buf;
		*p++ = '+';
		p = stp_put_hex(p, s->mod_off);
		*p++ = ']';
		*p++ = '\n';
		stp_out_bytes(c, NULL, buf, p - buf);
	}
}

/* One address in `form`, as SystemTap 4.8's _stp_snprint_addr writes
 * these formats. Addresses are "0x%llx" (4.8's %p is %#x since 1.3). */
static void stp_sym_emit(struct stp_sink *o, const struct stp_sym *s, enum stp_sym_form form)
{
	unsigned long long a = s->addr;

	switch (form) {
	case STP_SYM_FULL:
		if (!o->str && s->has_mod)
			stp_sym_full_out(o->c, s);
		else if (s->has_sym)
			stp_sink_printf(o, " 0x%llx : %s+%#llx/%#llx [%s]\n", a, s->name, s->off, s->size,
					s->module);
		else if (s->has_mod)
			stp_sink_printf(o, " 0x%llx [%s+%#llx]\n", a, s->module, s->mod_off);
		else
			stp_sink_printf(o, " 0x%llx\n", a);
		break;
	case STP_SYM_BRIEF:
		if (s->has_sym)
			stp_sink_printf(o, "%s+%#llx\n", s->name, s->off);
		else
			stp_sink_printf(o, "0x%llx\n", a);
		break;
	case STP_SYM_SIMPLE:
		if (s->has_sym)
			stp_sink_printf(o, "%s+%#llx [%s]\n", s->name, s->off, stp_basename(s->module));
		else if (s->has_mod)
			stp_sink_printf(o, "0x%llx [%s+%#llx]\n", a, stp_basename(s->module), s->mod_off);
		else
			stp_sink_printf(o, "0x%llx\n", a);
		break;
	case STP_SYM_HEX:
		stp_sink_printf(o, "0x%llx ", a);
		break;
	case STP_SYM_DATA:
		if (s->has_sym)
			stp_sink_printf(o, "%s+%#llx/%#llx [%s]", s->name, s->off, s->size, s->module);
		else if (s->has_mod)
			stp_sink_printf(o, "0x%llx [%s+%#llx]", a, s->module, s->mod_off);
		else
			stp_sink_printf(o, "0x%llx", a);
		break;
	case STP_SYM_NAME:
		if (s->has_sym)
			stp_sink_printf(o, "%s", s->name);
		else
			stp_sink_printf(o, "0x%llx", a);
		break;
	case STP_SYM_FILELINE: /* a table's row always has both */
		if (s->file)
			stp_sink_printf(o, "%s:%u", s->file, s->line);
		else
			stp_sink_printf(o, "0x%llx", a);
		break;
	case STP_SYM_FILE:
		if (s->file)
			stp_sink_printf(o, "%s", s->file);
		else
			stp_sink_printf(o, "0x%llx", a);
		break;
	case STP_SYM_LINE:
		if (s->file)
			stp_sink_printf(o, "%u", s->line);
		else
			stp_sink_printf(o, "0x%llx", a);
		break;
	}
}

/* The probe point for 4.8's "<no user backtrace at PP>". */
static const char *stp_probe_point(struct stp_context *c)
{
	return c->probe && c->probe->pp ? c->probe->pp : "";
}

void stp_ustack_print(struct stp_context *c, char *str, enum stp_sym_form form)
{
	struct stp_sink o = { c, str, 0, 0 };
	struct stp_ustack *u;
	struct stp_sym s;
	unsigned i;

	if (str)
		str[0] = '\0';
	u = stp_ustack_walk(c);
	if (!u->have_regs) {
		if (form == STP_SYM_HEX)
			stp_sink_printf(&o, "\n");
		else
			stp_sink_printf(&o, "<no user backtrace at %s>\n", stp_probe_point(c));
		stp_sink_finish(&o);
		return;
	}
	for (i = 0; i < u->n; i++) {
		if (form == STP_SYM_HEX) {
			s.addr = u->pc[i];
		} else {
			u64 pc = u->pc[i];
			stp_usym_lookup(&s, pc, u->exact[i] ? pc : pc - 1, false);
		}
		stp_sym_emit(&o, &s, form);
	}
	/* A stack cut at MAXBACKTRACE says so where it is printed (the
	 * strings keep 4.8's form). */
	if (u->stop == STP_USTACK_CUT && !str && form != STP_SYM_HEX)
		stp_sink_printf(&o, form == STP_SYM_FULL ? " ...\n" : "...\n");
	stp_sink_finish(&o);
}

void stp_usym_sprint(struct stp_context *c, char *str, u64 addr, enum stp_sym_form form)
{
	struct stp_sink o = { c, str, 0, 0 };
	struct stp_sym s;

	str[0] = '\0';
	/* a 32-bit task's addresses are 32 bits (as 4.8 reads them) */
	if (stp_task_is32())
		addr = (u32)addr;
	stp_usym_lookup(&s, addr, addr, stp_sym_form_wants_lines(form));
	stp_sym_emit(&o, &s, form);
}
