/* process.begin, process.end, process.thread.begin, process.thread.end,
 * process.syscall, process.syscall.return, each optionally for a program
 * (process("PATH")) or a process (process(PID)). See docs/probes.md,
 * "Process events".
 *
 * Every event runs in the context of the process or thread it is about:
 *  - a new process (fork, vfork, clone without CLONE_THREAD): begin, and a
 *    new thread: thread.begin, as task work of the child (task_work_add
 *    from the sched_process_fork tracepoint, which runs in the parent):
 *    before the child's first user instruction;
 *  - exec: the old image ends and the new one begins (SystemTap's rule),
 *    both from the sched_process_exec tracepoint in the task itself;
 *  - exit: a kprobe on taskstats_exit(tsk, group_dead), which do_exit()
 *    calls while the task still has its mm (sched_process_exit comes after
 *    exit_mm(), too late for a backtrace or the program's path): the thread
 *    whose exit ends its process gets process.end, every other thread
 *    thread.end;
 *  - the processes that exist when the session starts: begin, as task work
 *    of each, woken for it as for a signal (TWA_SIGNAL);
 *  - system calls: the raw_syscalls sys_enter and sys_exit tracepoints, in
 *    the calling thread, with its user registers (hooked only when a
 *    syscall probe exists: they slow every system call down).
 * With -c or -x only the target's process tree is seen (SystemTap's rule).
 * Task works are waited for at the stop as the task finder's are
 * (task/task_work_queue.h). */
#include <linux/tracepoint.h>
#include "../task/task_work_queue.h"
#include "../task/tracepoint_hooks.h"
#include <linux/sched/signal.h>
#include <asm/syscall.h>

static struct stp_proc_probe *stp_proc_probe(unsigned i)
{
	return &((struct stp_proc_probe *)stp_kind_table(PROC)->probes)[i];
}

static STP_TASK_WORK_QUEUE(stp_pe_works, "process event");
static bool stp_pe_started;
static unsigned stp_pe_kinds; /* bit per enum stp_proc_kind with a probe */
/* process("PATH") probes whose program did not exist at the start: their
 * inode is looked up when a process execs (stp_pe_late_exec). */
static unsigned stp_pe_waiting;

/* Is current running the program whose inode this is? */
static bool stp_pe_exe_is(const struct inode *inode)
{
	struct mm_struct *mm = current->mm;
	struct file *f;
	bool same;

	if (!mm || !inode)
		return false;
	rcu_read_lock();
	f = rcu_dereference(mm->exe_file);
	/* inode is the real one (stp_uprobe_inode): below an overlay */
	same = f && d_real_inode(f->f_path.dentry) == READ_ONCE(inode);
	rcu_read_unlock();
	return same;
}

static bool stp_pe_wanted(const struct stp_proc_probe *p)
{
	if (!stp_privilege_allows_current())
		return false;
	if (p->pid)
		return task_tgid_nr(current) == p->pid;
	if (p->path && !stp_pe_exe_is(READ_ONCE(p->inode)))
		return false;
	return stp_in_target_tree();
}

/* Runs the probes of `kind` that want current; `regs` (or NULL) are the
 * user registers (system calls: what $syscall, $argN, $return read). */
static void stp_pe_run_regs(enum stp_proc_kind kind, struct pt_regs *regs)
{
	unsigned i;

	if (current->flags & PF_KTHREAD)
		return;
	for (i = 0; i < stp_kind_table(PROC)->n; i++) {
		const struct stp_proc_probe *p = stp_proc_probe(i);
		if (p->kind == kind && stp_pe_wanted(p))
			stp_run_event_probe_regs(p->probe, regs);
	}
}

static void stp_pe_run(enum stp_proc_kind kind)
{
	stp_pe_run_regs(kind, NULL);
}

/* At exec: the end probes of the image being replaced, but those with a
 * path, which current's exe (the new image) cannot tell. */
static void stp_pe_run_old_image_end(void)
{
	unsigned i;

	if (current->flags & PF_KTHREAD)
		return;
	for (i = 0; i < stp_kind_table(PROC)->n; i++) {
		const struct stp_proc_probe *p = stp_proc_probe(i);
		if (p->kind == STP_PROC_END && !p->path && stp_pe_wanted(p))
			stp_run_event_probe(p->probe);
	}
}

static void stp_pe_work_fn(struct stp_task_work *w)
{
	stp_pe_run((enum stp_proc_kind)w->arg);
}

/* Any context: run the probes of `kind` as task work of `tsk`; `notify`
 * interrupts a sleep to run it (the system call restarts). */
static void stp_pe_queue(struct task_struct *tsk, enum stp_proc_kind kind, bool notify)
{
	if (stp_pe_kinds & (1u << kind))
		stp_twq_add(&stp_pe_works, tsk, stp_pe_work_fn, kind, notify);
}

static void stp_pe_on_fork(void *data, struct task_struct *parent, struct task_struct *child)
{
	if (child->flags & PF_KTHREAD)
		return;
	stp_pe_queue(child, same_thread_group(parent, child) ? STP_PROC_THREAD_BEGIN
							      : STP_PROC_BEGIN, false);
}

/* Task work after an exec while some process("PATH") probe waits for its
 * program (sleepable: the lookup may block): looks the waiting paths up
 * and runs the begin probes of those that now name this process's
 * program, before its first user instruction, as the exec would have.
 * (Should two processes exec the new program at once, the second may
 * find it resolved by the first and miss its begin.) */
static void stp_pe_late_exec(struct stp_task_work *w)
{
	unsigned i;
	int rc;

	for (i = 0; i < stp_kind_table(PROC)->n; i++) {
		struct stp_proc_probe *p = stp_proc_probe(i);
		struct inode *inode;

		if (!p->path || READ_ONCE(p->inode))
			continue;
		inode = stp_uprobe_inode(p->path, &rc);
		if (!inode)
			continue;
		if (cmpxchg(&p->inode, NULL, inode) != NULL) {
			iput(inode); /* another exec looked it up first */
			continue;
		}
		if (p->kind == STP_PROC_BEGIN && stp_pe_wanted(p))
			stp_run_event_probe(p->probe);
	}
}

static void stp_pe_on_exec(void *data, struct task_struct *p, pid_t old_pid,
			   struct linux_binprm *bprm)
{
	if (!stp_twq_accepting(&stp_pe_works))
		return;
	/* The old image's end: the new image is already mapped, so a
	 * process("PATH").end of the old program cannot tell it is its own
	 * and does not run (matched against the exe now, it would be the
	 * NEW program's end, at its start). */
	stp_pe_run_old_image_end();
	stp_pe_run(STP_PROC_BEGIN);
	if (stp_pe_waiting)
		stp_twq_add(&stp_pe_works, current, stp_pe_late_exec, 0, false);
}

static int stp_pe_exit_pre(struct kprobe *kp, struct pt_regs *regs)
{
	/* taskstats_exit(struct task_struct *tsk, int group_dead) */
	bool group_dead = regs_get_kernel_argument(regs, 1) != 0;

	if (stp_twq_accepting(&stp_pe_works))
		stp_pe_run(group_dead ? STP_PROC_END : STP_PROC_THREAD_END);
	return 0;
}

static void stp_pe_on_sys_enter(void *data, struct pt_regs *regs, long id)
{
	if (stp_twq_accepting(&stp_pe_works))
		stp_pe_run_regs(STP_PROC_SYSCALL, regs);
}

static void stp_pe_on_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	if (stp_twq_accepting(&stp_pe_works))
		stp_pe_run_regs(STP_PROC_SYSCALL_RETURN, regs);
}

static struct kprobe stp_pe_exit_kp = {
	.symbol_name = "taskstats_exit",
	.pre_handler = stp_pe_exit_pre,
};
static bool stp_pe_exit_registered;

/* A hook's need: the probe kinds it serves (hooked when a probe of one of
 * them exists), and STP_PE_WAITING: also while a process("PATH") probe
 * waits for its program to appear. */
#define STP_PE_BIT(kind) (1u << STP_PROC_##kind)
#define STP_PE_WAITING (1u << 31)
static struct stp_tp_hook stp_pe_tracepoints[] = {
	{"sched_process_fork", stp_pe_on_fork, STP_PE_BIT(BEGIN) | STP_PE_BIT(THREAD_BEGIN)},
	{"sched_process_exec", stp_pe_on_exec, STP_PE_BIT(BEGIN) | STP_PE_BIT(END) | STP_PE_WAITING},
	{"sys_enter", stp_pe_on_sys_enter, STP_PE_BIT(SYSCALL)},
	{"sys_exit", stp_pe_on_sys_exit, STP_PE_BIT(SYSCALL_RETURN)},
};

/* begin for every process (of the target's tree) that exists now, in
 * its own context: a sleeping process is woken to run it, as a signal
 * would (its system call restarts). staprun itself is not one. */
static void stp_pe_existing(void)
{
	struct task_struct *p;

	rcu_read_lock();
	for_each_process(p) {
		if (p->flags & PF_KTHREAD || same_thread_group(p, current) ||
		    !stp_task_in_target_tree(p))
			continue;
		stp_pe_queue(p, STP_PROC_BEGIN, true);
	}
	rcu_read_unlock();
}

static void stp_proc_events_stop(void);

/* 0 or -errno (and an error message). */
static int stp_proc_events_start(void)
{
	unsigned i;
	int rc;

	if (!stp_kind_table(PROC)->n)
		return 0;
	stp_pe_started = true;
	stp_pe_kinds = 0;
	stp_pe_waiting = 0;
	for (i = 0; i < stp_kind_table(PROC)->n; i++) {
		struct stp_proc_probe *p = stp_proc_probe(i);
		stp_pe_kinds |= 1u << p->kind;
		p->inode = p->path ? stp_uprobe_inode(p->path, &rc) : NULL;
		if (p->path && !p->inode && rc == -ENOENT) {
			stp_pe_waiting++; /* the program does not exist yet */
		} else if (p->path && !p->inode) {
			stp_ctl_send("error probe %s (%s) registration failed: error %d",
				     p->probe->pp, p->probe->loc, rc);
			stp_proc_events_stop();
			return rc;
		}
	}
	stp_twq_open(&stp_pe_works);
	rc = stp_tp_hooks_register(stp_pe_tracepoints, ARRAY_SIZE(stp_pe_tracepoints),
				   stp_pe_kinds | (stp_pe_waiting ? STP_PE_WAITING : 0),
				   "process probes");
	if (rc) {
		stp_proc_events_stop();
		return rc;
	}
	if (stp_pe_kinds & ((1u << STP_PROC_END) | (1u << STP_PROC_THREAD_END))) {
		rc = register_kprobe(&stp_pe_exit_kp);
		if (rc) {
			stp_ctl_send("error process end probes cannot hook taskstats_exit: error %d", rc);
			stp_proc_events_stop();
			return rc;
		}
		stp_pe_exit_registered = true;
	}
	return 0;
}

/* Once the session runs (event probes run only then): begin of the
 * processes that exist. */
static void stp_proc_events_running(void)
{
	if (stp_pe_started)
		stp_pe_existing();
}

static void stp_proc_events_stop(void)
{
	unsigned i;

	if (!stp_pe_started)
		return;
	stp_pe_started = false;
	stp_twq_refuse(&stp_pe_works);
	if (stp_pe_exit_registered) {
		unregister_kprobe(&stp_pe_exit_kp);
		stp_pe_exit_registered = false;
	}
	stp_tp_hooks_unregister(stp_pe_tracepoints, ARRAY_SIZE(stp_pe_tracepoints));
	/* Works of processes that never return to user space (blocked) stay
	 * queued: they hold a module reference each. */
	stp_twq_drain(&stp_pe_works, HZ / 2);
	for (i = 0; i < stp_kind_table(PROC)->n; i++) {
		struct stp_proc_probe *p = stp_proc_probe(i);
		if (p->inode)
			iput(p->inode);
		p->inode = NULL;
	}
}

/* ---- what a process.syscall probe's handler reads ---- */

/* $syscall: the system call's number in the task's ABI (a 32-bit task's
 * is i386's). */
long stp_psys_nr(struct stp_context *c)
{
	return c->regs ? syscall_get_nr(current, c->regs) : -1;
}

/* $argN (1 to 6), as the task passed it. */
long stp_psys_arg(struct stp_context *c, unsigned n)
{
	unsigned long a[6];

	if (!c->regs || n < 1 || n > 6)
		return 0;
	syscall_get_arguments(current, c->regs, a);
	return a[n - 1];
}

/* $return of process.syscall.return. */
long stp_psys_return(struct stp_context *c)
{
	return c->regs ? syscall_get_return_value(current, c->regs) : 0;
}

static const struct stp_probe_kind_ops stp_kind_proc_events = {
	.name = "process",
	.register_probes = stp_proc_events_start,
	.start = stp_proc_events_running,
	.unregister_probes = stp_proc_events_stop,
};
