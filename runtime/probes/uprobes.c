/* User-space probes on instructions of files, through the kernel's inode
 * uprobes: process("PATH").function("f")[.return], .library("L")...,
 * .mark("m") (SDT markers). See docs/probes.md, "User-space probes".
 *
 * A uprobe belongs to a file (inode, offset), not to a process: once
 * registered at the session start, the kernel puts the breakpoint in every
 * mapping of the file, those that exist and those made later (exec, dlopen),
 * so the -c command, released by staprun only after "start", runs with its
 * probes in place. A file that does not exist at the start is armed when a
 * task first maps it (stp_uprobes_arm_late), on that mapping's inode. The handlers filter by process: with -c or -x only the
 * target's process tree runs them (SystemTap's rule); process(PID) only
 * that process.
 *
 * uprobe_register() and uprobe_register_refctr() (SDT semaphores: the
 * kernel counts the probe in the semaphore of every mapping) are exported
 * on Debian's 6.1 kernels. The handlers run in the probed task, in process
 * context, with the task's user registers; the return handler runs at the
 * uretprobe trampoline with regs->ip already the real return address and
 * the stack pointer the caller's after the return. */
#include <linux/namei.h>

static bool stp_task_is32(void); /* stack/ustack.c */

/* Is `task` in the -c/-x target's process tree (or is there no target)?
 * Bounded walk up the real parents. */
static bool stp_task_in_target_tree(struct task_struct *task)
{
	struct task_struct *t;
	pid_t target = stp_target_pid;
	unsigned depth;
	bool in = false;

	if (!target)
		return true;
	rcu_read_lock();
	t = task;
	for (depth = 0; t && depth < 256; depth++) {
		if (task_tgid_nr(t) == target) {
			in = true;
			break;
		}
		if (t->pid <= 1)
			break;
		t = rcu_dereference(t->real_parent);
	}
	rcu_read_unlock();
	return in;
}

static bool stp_in_target_tree(void)
{
	return stp_task_in_target_tree(current);
}

static bool stp_uprobe_wanted(const struct stp_uprobe *u)
{
	if (!stp_privilege_allows_current())
		return false;
	if (u->pid)
		return task_tgid_nr(current) == u->pid;
	return stp_in_target_tree();
}

/* Runs `probe` (u's, or its entry part) with `regs`; the handler finds u
 * in the context (c->uprobe: $argN, $return; c->uprobe_pc: where u's
 * instruction is in this process) and @entry values in `entry_data`.
 * Task context: interrupts are off from here so the context is this CPU's
 * for the whole run. Returns whether the handler ran. */
static bool stp_uprobe_run_data(const struct stp_probe *probe, struct stp_uprobe *u,
				struct pt_regs *regs, unsigned long pc, void *entry_data)
{
	struct stp_context *c;
	unsigned long flags;
	bool ran;

	local_irq_save(flags);
	c = stp_contexts[smp_processor_id()];
	if (!READ_ONCE(c->busy)) {
		c->uprobe = u;
		c->uprobe_pc = pc;
	}
	ran = stp_run_event_probe_data(probe, regs, entry_data, 0, false);
	if (!READ_ONCE(c->busy))
		c->uprobe = NULL;
	local_irq_restore(flags);
	return ran;
}

#include "uprobe_entry.c"

static int stp_uprobe_handler(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	struct stp_uprobe *u = container_of(uc, struct stp_uprobe, uc);

	/* The kernel has set regs->ip back to the breakpoint: u's instruction. */
	if (stp_uprobe_wanted(u))
		stp_uprobe_run_data(u->probe, u, regs, instruction_pointer(regs), NULL);
	return 0;
}

/* A return probe with @entry values: its entry part, at the entry. */
static int stp_uretprobe_entry_handler(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	struct stp_uprobe *u = container_of(uc, struct stp_uprobe, uc);

	if (stp_uprobe_wanted(u))
		stp_uentry_enter(u, regs);
	return 0;
}

static int stp_uretprobe_handler(struct uprobe_consumer *uc, unsigned long func,
				 struct pt_regs *regs)
{
	struct stp_uprobe *u = container_of(uc, struct stp_uprobe, uc);

	if (!stp_uprobe_wanted(u))
		return 0;
	/* `func`: where the returning function was entered, u's instruction. */
	if (u->entry)
		stp_uentry_return(u, regs, func);
	else
		stp_uprobe_run_data(u->probe, u, regs, func, NULL);
	return 0;
}

/* The inode of `path` as the session's (staprun's) root sees it, pinned:
 * the inode whose pages are mapped, i.e. below an overlay the real one
 * (d_real_inode: mmap() of an overlay file maps the layer's file; our
 * guests' /tmp is such an overlay). */
static struct inode *stp_uprobe_inode(const char *path, int *rc)
{
	struct path p;
	struct inode *inode;

	*rc = kern_path(path, LOOKUP_FOLLOW, &p);
	if (*rc)
		return NULL;
	inode = igrab(d_real_inode(p.dentry));
	path_put(&p);
	if (!inode)
		*rc = -ENOENT;
	else if (!S_ISREG(inode->i_mode)) {
		iput(inode);
		inode = NULL;
		*rc = -EINVAL;
	}
	return inode;
}

/* Probes whose file does not exist when the session starts (a program or
 * library created later, as SystemTap's task finder arms them when a
 * process maps them): each is armed by the first task that maps a file at
 * its path, from the task finder's rescan of that task's map
 * (stp_uprobes_arm_late), before the task runs another user instruction.
 * The mutex orders late arming against the stop. */
static DEFINE_MUTEX(stp_uprobes_late_mutex);
static atomic_t stp_uprobes_waiting = ATOMIC_INIT(0);
static bool stp_uprobes_closed;

/* Registers u on `inode` (pinned; u keeps it, or it is released): 0 or
 * -errno. */
static int stp_uprobe_arm_inode(struct stp_uprobe *u, struct inode *inode)
{
	int rc;

	memset(&u->uc, 0, sizeof(u->uc));
	if (u->is_return) {
		u->uc.ret_handler = stp_uretprobe_handler;
		if (u->entry) /* its @entry part (uprobe_entry.c) */
			u->uc.handler = stp_uretprobe_entry_handler;
	} else {
		u->uc.handler = stp_uprobe_handler;
	}
	u->inode = inode;
	rc = u->sdt_sem ? uprobe_register_refctr(u->inode, u->offset, u->sdt_sem, &u->uc)
			: uprobe_register(u->inode, u->offset, &u->uc);
	if (rc) {
		iput(u->inode);
		u->inode = NULL;
	}
	u->registered = rc == 0;
	return rc;
}

/* Registers u on its file's inode: 0 or -errno. */
static int stp_uprobe_arm(struct stp_uprobe *u)
{
	int rc;
	struct inode *inode = stp_uprobe_inode(u->path, &rc);

	return inode ? stp_uprobe_arm_inode(u, inode) : rc;
}

static void stp_uprobe_failed(struct stp_uprobe *u, int rc)
{
	stp_ctl_send("error probe %s (%s) registration failed: error %d", u->probe->pp,
		     u->probe->loc, rc);
}

/* Returns 0, or the first error of a probe that is not optional. A file
 * that does not exist yet is not an error: its probes wait for it. */
static int stp_uprobes_register(void)
{
	unsigned i;
	int rc;

	for (i = 0; i < stp_kind_table(UPROBE)->n; i++) {
		struct stp_uprobe *u = &((struct stp_uprobe *)stp_kind_table(UPROBE)->probes)[i];

		if (u->entry && (rc = stp_uentry_alloc(u->entry_data_size)))
			return rc;
	}
	mutex_lock(&stp_uprobes_late_mutex); /* the task finder runs already */
	stp_uprobes_closed = false;
	atomic_set(&stp_uprobes_waiting, 0);
	for (i = 0; i < stp_kind_table(UPROBE)->n; i++) {
		struct stp_uprobe *u = &((struct stp_uprobe *)stp_kind_table(UPROBE)->probes)[i];

		u->waiting = false;
		u->inode = NULL;
		rc = stp_uprobe_arm(u);
		if (rc == -ENOENT) {
			u->waiting = true;
			atomic_inc(&stp_uprobes_waiting);
		} else if (rc && !u->optional) {
			mutex_unlock(&stp_uprobes_late_mutex);
			stp_uprobe_failed(u, rc);
			return rc;
		}
	}
	mutex_unlock(&stp_uprobes_late_mutex);
	return 0;
}

/* For each waiting probe whose path current maps (d_path of the mapping,
 * relative to current's root): the mapping's inode, pinned, in u->inode.
 * The mapping's own inode is what the kernel compares a uprobe's with when
 * it installs breakpoints in a mapping; below an overlay the file behind
 * a mapping need not be the one d_real_inode() of the path gives. One
 * d_path() per file mapping. */
static void stp_uprobes_find_mapped(char *buf)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	unsigned i;

	if (!mm || mmap_read_lock_killable(mm))
		return;
	{
		VMA_ITERATOR(vmi, mm, 0);
		for_each_vma(vmi, vma) {
			char *p;

			if (!vma->vm_file)
				continue;
			p = d_path(&vma->vm_file->f_path, buf, PATH_MAX);
			if (IS_ERR(p))
				continue;
			for (i = 0; i < stp_kind_table(UPROBE)->n; i++) {
				struct stp_uprobe *u =
					&((struct stp_uprobe *)stp_kind_table(UPROBE)->probes)[i];
				if (u->waiting && !u->inode && !strcmp(p, u->path))
					u->inode = igrab(file_inode(vma->vm_file));
			}
		}
	}
	mmap_read_unlock(mm);
}

/* Task work of a task whose map changed (task_finder.c), sleepable: arms
 * the waiting probes whose file this task maps now. */
static void stp_uprobes_arm_late(void)
{
	char *buf;
	unsigned i;
	int rc;

	if (!atomic_read(&stp_uprobes_waiting))
		return;
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!buf)
		return;
	mutex_lock(&stp_uprobes_late_mutex);
	if (!stp_uprobes_closed)
		stp_uprobes_find_mapped(buf);
	for (i = 0; !stp_uprobes_closed && i < stp_kind_table(UPROBE)->n; i++) {
		struct stp_uprobe *u = &((struct stp_uprobe *)stp_kind_table(UPROBE)->probes)[i];

		if (!u->waiting || !u->inode)
			continue;
		rc = stp_uprobe_arm_inode(u, u->inode);
		u->waiting = false;
		atomic_dec(&stp_uprobes_waiting);
		if (rc && !u->optional)
			stp_ctl_send("warning probe %s (%s) cannot be armed on the new %s: error %d",
				     u->probe->pp, u->probe->loc, u->path, rc);
	}
	mutex_unlock(&stp_uprobes_late_mutex);
	kfree(buf);
}

/* No handler of ours runs once this returns: uprobe_unregister() takes the
 * uprobe's register_rwsem for writing, which its handler chains hold for
 * reading. Calls still pending in the tasks keep their trampolines; their
 * returns run the consumers left, none of ours. */
static void stp_uprobes_unregister(void)
{
	unsigned i;

	mutex_lock(&stp_uprobes_late_mutex);
	stp_uprobes_closed = true;
	atomic_set(&stp_uprobes_waiting, 0);
	for (i = 0; i < stp_kind_table(UPROBE)->n; i++) {
		struct stp_uprobe *u = &((struct stp_uprobe *)stp_kind_table(UPROBE)->probes)[i];
		u->waiting = false;
		if (!u->registered)
			continue;
		uprobe_unregister(u->inode, u->offset, &u->uc);
		iput(u->inode);
		u->inode = NULL;
		u->registered = false;
	}
	mutex_unlock(&stp_uprobes_late_mutex);
	stp_uentry_free();
}

static const struct stp_probe_kind_ops stp_kind_uprobes = {
	.name = "uprobe",
	.register_probes = stp_uprobes_register,
	.unregister_probes = stp_uprobes_unregister, /* waits for running handlers */
};

/* ---- what a uprobe's handler reads ---- */

/* A register of `regs` by its index in struct pt_regs (in longs). */
static inline unsigned long stp_pt_reg(const struct pt_regs *regs, int index)
{
	return ((const unsigned long *)regs)[index];
}

static s64 stp_sdt_extend(u64 v, int size, bool is32)
{
	unsigned bytes = size < 0 ? -size : size;

	if (!bytes)
		bytes = is32 ? 4 : 8;
	if (bytes < 8) {
		u64 mask = (1ULL << (8 * bytes)) - 1;
		v &= mask;
		if (size < 0 && (v & (1ULL << (8 * bytes - 1))))
			v |= ~mask;
	}
	return (s64)v;
}

/* $argN of an SDT marker: the note's operand N (1-based) decoded at this
 * hit, as sys/sdt.h describes it: size@operand. */
s64 stp_sdt_arg(struct stp_context *c, unsigned n)
{
	const struct stp_uprobe *u = c->uprobe;
	const struct stp_sdt_arg *a;
	struct pt_regs *regs = c->regs;
	bool is32 = stp_task_is32();
	u64 v = 0, addr;
	unsigned bytes;

	if (!u || !regs || n < 1 || n > u->nargs) {
		stp_error(c, "SDT argument out of range");
		return 0;
	}
	a = &u->args[n - 1];
	switch (a->kind) {
	case STP_SDT_CONST:
		v = a->disp;
		break;
	case STP_SDT_REG:
		v = stp_pt_reg(regs, a->base) >> a->shift;
		if (a->reg_bytes < 8)
			v &= (1ULL << (8 * a->reg_bytes)) - 1;
		break;
	case STP_SDT_MEM:
		addr = a->disp;
		if (a->base >= 0)
			addr += stp_pt_reg(regs, a->base);
		if (a->index >= 0)
			addr += (u64)stp_pt_reg(regs, a->index) * a->scale;
		if (a->relocate) /* a symbol: its link-time address plus the load bias */
			addr += instruction_pointer(regs) - u->link_pc;
		if (is32)
			addr = (u32)addr;
		bytes = a->size < 0 ? -a->size : a->size;
		if (!bytes)
			bytes = is32 ? 4 : 8;
		if (bytes > 8 ||
		    copy_from_user_nofault(&v, (const void __user *)(unsigned long)addr, bytes)) {
			if (!c->last_error) {
				snprintf(c->error_buf, sizeof(c->error_buf),
					 "read fault at 0x%llx (SDT argument %u)",
					 (unsigned long long)addr, n);
				stp_error(c, c->error_buf);
			}
			return 0;
		}
		break;
	default:
		stp_error(c, "this SDT argument's operand cannot be decoded");
		return 0;
	}
	return stp_sdt_extend(v, a->size, is32);
}

/* $$parms of an SDT marker: "arg1=0x... arg2=0x...". */
char *stp_sdt_parms(struct stp_context *c, char *buf)
{
	const struct stp_uprobe *u = c->uprobe;
	size_t len = 0;
	unsigned i;

	buf[0] = '\0';
	for (i = 1; u && i <= u->nargs && len < MAXSTRINGLEN; i++) {
		s64 v = stp_sdt_arg(c, i);
		if (c->last_error)
			return buf;
		len += scnprintf(buf + len, MAXSTRINGLEN - len, "%sarg%u=%#llx", i > 1 ? " " : "", i,
				 (unsigned long long)v);
	}
	return buf;
}

/* $return of a user function return probe: the return register, as the
 * task's own long (a 32-bit task's eax sign-extended). */
s64 stp_uprobe_return(struct stp_context *c)
{
	unsigned long ax = c->regs ? regs_return_value(c->regs) : 0;

	if (stp_task_is32())
		return (s64)(s32)ax;
	return (s64)(long)ax;
}

/* How far this process loaded the probed object from its link-time
 * addresses: what DWARF's static addresses (DW_OP_addr) are moved by. */
unsigned long stp_uprobe_bias(struct stp_context *c)
{
	if (!c->uprobe)
		return 0;
	return c->uprobe_pc - c->uprobe->link_pc;
}
