/* Perf events bound to tasks: perf.*.process("PATH") (sampling: the probe
 * runs every N events of each thread) and perf.*.counter("NAME") (counting
 * only, read with @perf in a process probe), included by perf.c. See
 * docs/probes.md, "Perf events".
 *
 * Each thread of a matching process gets its own events (one per
 * task-bound probe, index `slot`): perf_event_create_kernel_counter(attr,
 * -1, task, ...) allocates and may sleep, so it is called only in process
 * context, under stp_pt_mutex:
 *  - the session start, for the threads that exist (pinned, then made
 *    their events outside RCU);
 *  - a task work of the thread itself (task/task_work_queue.h), queued by
 *    the sched_process_exec tracepoint (the new image is the program) and
 *    sched_process_fork (a new process or thread of a matching one), run
 *    before its first user instruction.
 * A thread's events are dropped when it exits (sched_process_exit) or
 * execs (the old image's), and released by a work item (stp_pt_reap)
 * after an RCU grace period; all of them at the stop.
 *
 * The table (MAXPERFTASKS threads) is searched by probe handlers without
 * locks: a slot's `task` is published last (release) and cleared first,
 * and readers hold rcu_read_lock() with interrupts off, so an event is
 * freed only when no reader can hold it. The read does not sleep:
 * perf_event_read_value() takes a mutex and perf_event_read_local() is not
 * exported, so the reader does what the kernel's perf_event_read_local()
 * does for the current thread's event: with interrupts off the event
 * cannot be scheduled out or removed on this CPU; if it is active here its
 * PMU's read() brings the count up to date (task_clock), then the count is
 * read. Software counters (page faults, context switches) count into it
 * directly. */
#include <linux/tracepoint.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include "../task/task_work_queue.h"
#include "../task/tracepoint_hooks.h"

#ifndef MAXPERFTASKS
#define MAXPERFTASKS 256
#endif

/* uprobes.c, included after this file */
static struct inode *stp_uprobe_inode(const char *path, int *rc);
static bool stp_task_in_target_tree(struct task_struct *task);

enum { STP_PT_FREE, STP_PT_LIVE, STP_PT_DEAD };
struct stp_pt_slot {
	struct task_struct *task;   /* what readers match: set last, cleared first */
	struct task_struct *owner;  /* pinned while the slot holds events */
	atomic_t state;             /* FREE -> LIVE (mutex) -> DEAD (any) -> FREE (mutex) */
	struct perf_event **events; /* [stp_pt_n], by probe slot */
};

static struct stp_pt_slot *stp_pt_slots; /* [MAXPERFTASKS], readers: RCU */
static struct stp_pt_slot *stp_pt_table; /* the same, for the stop to free */
static struct perf_event **stp_pt_events;
static unsigned stp_pt_n;    /* events per thread: the task-bound probes */
static unsigned stp_pt_used; /* slots ever used: what readers scan */
static unsigned stp_pt_waiting; /* probes whose program did not exist yet */
static bool stp_pt_open;     /* events may be made (under the mutex) */
static DEFINE_MUTEX(stp_pt_mutex);
static STP_TASK_WORK_QUEUE(stp_pt_works, "perf counter");
static atomic_t stp_pt_full = ATOMIC_INIT(0);   /* threads not counted: no slot */
static atomic_t stp_pt_failed = ATOMIC_INIT(0); /* events the kernel refused */
static int stp_pt_last_error;

static void stp_pt_reap(struct work_struct *w);
static DECLARE_WORK(stp_pt_reaper, stp_pt_reap);

#define stp_pt_for_each_probe(p, i)                                              \
	for (i = 0; i < stp_kind_table(PERF)->n; i++)                            \
		if ((p = &((struct stp_perf_probe *)stp_kind_table(PERF)->probes)[i]), \
		    p->bound != STP_PERF_BOUND_NONE)

/* ---- which threads ---- */

/* Does tsk run the program whose (real) inode this is? Any context but
 * NMI: task_lock keeps tsk->mm while its exe file is read under RCU. */
static bool stp_pt_exe_is(struct task_struct *tsk, const struct inode *inode)
{
	struct file *f;
	bool same = false;

	if (!inode)
		return false;
	task_lock(tsk);
	if (tsk->mm) {
		rcu_read_lock();
		f = rcu_dereference(tsk->mm->exe_file);
		same = f && d_real_inode(f->f_path.dentry) == inode;
		rcu_read_unlock();
	}
	task_unlock(tsk);
	return same;
}

static bool stp_pt_wants(const struct stp_perf_probe *p, struct task_struct *tsk)
{
	if (tsk->flags & (PF_KTHREAD | PF_EXITING) || !stp_task_in_target_tree(tsk))
		return false;
	if (p->bound == STP_PERF_BOUND_TARGET)
		return stp_target_pid != 0; /* no -c or -x: no target, nothing */
	return stp_pt_exe_is(tsk, READ_ONCE(p->inode));
}

static bool stp_pt_wanted(struct task_struct *tsk)
{
	struct stp_perf_probe *p;
	unsigned i;

	stp_pt_for_each_probe(p, i)
		if (stp_pt_wants(p, tsk))
			return true;
	return false;
}

/* ---- the table ---- */

/* Any context: the slot's events are no longer tsk's; released later. */
static void stp_pt_kill(struct stp_pt_slot *s)
{
	if (atomic_cmpxchg(&s->state, STP_PT_LIVE, STP_PT_DEAD) != STP_PT_LIVE)
		return;
	WRITE_ONCE(s->task, NULL);
	schedule_work(&stp_pt_reaper);
}

static void stp_pt_kill_task(struct task_struct *tsk)
{
	struct stp_pt_slot *slots = READ_ONCE(stp_pt_slots);
	unsigned i, used = READ_ONCE(stp_pt_used);

	for (i = 0; slots && i < used; i++)
		if (READ_ONCE(slots[i].task) == tsk)
			stp_pt_kill(&slots[i]);
}

/* Under the mutex, after an RCU grace period since the slot was killed. */
static void stp_pt_free_slot(struct stp_pt_slot *s)
{
	unsigned k;

	for (k = 0; k < stp_pt_n; k++)
		if (s->events[k]) {
			perf_event_release_kernel(s->events[k]);
			s->events[k] = NULL;
		}
	put_task_struct(s->owner);
	s->owner = NULL;
	atomic_set(&s->state, STP_PT_FREE);
}

/* Work item: releases the events of threads that exited or exec'd. */
static void stp_pt_reap(struct work_struct *w)
{
	unsigned i;

	mutex_lock(&stp_pt_mutex);
	if (stp_pt_open) {
		synchronize_rcu(); /* readers that found a killed slot are done */
		for (i = 0; i < stp_pt_used; i++)
			if (atomic_read(&stp_pt_slots[i].state) == STP_PT_DEAD)
				stp_pt_free_slot(&stp_pt_slots[i]);
	}
	mutex_unlock(&stp_pt_mutex);
}

static struct perf_event *stp_pt_create(struct stp_perf_probe *p, struct task_struct *tsk)
{
	struct perf_event_attr attr = {
		.type = p->type,
		.config = p->config,
		.size = sizeof(attr),
		.sample_period = p->period, /* 0: a counter */
		.freq = p->freq,
	};
	/* inherit stays 0: each thread gets its own, read only by itself */
	return perf_event_create_kernel_counter(&attr, -1, tsk, p->counter ? NULL : stp_perf_fire,
						p);
}

/* Process context (may sleep): tsk's events, unless it has them. */
static void stp_pt_attach(struct task_struct *tsk)
{
	struct stp_pt_slot *s = NULL;
	struct stp_perf_probe *p;
	unsigned i, made = 0;

	mutex_lock(&stp_pt_mutex);
	if (!stp_pt_open)
		goto out;
	for (i = 0; i < MAXPERFTASKS; i++) {
		int state = atomic_read(&stp_pt_slots[i].state);
		if (state == STP_PT_LIVE && stp_pt_slots[i].owner == tsk)
			goto out;
		if (!s && state == STP_PT_FREE)
			s = &stp_pt_slots[i];
	}
	if (!s) {
		atomic_inc(&stp_pt_full);
		goto out;
	}
	stp_pt_for_each_probe(p, i) {
		struct perf_event *ev;
		if (!stp_pt_wants(p, tsk))
			continue;
		ev = stp_pt_create(p, tsk);
		if (IS_ERR(ev)) {
			atomic_inc(&stp_pt_failed);
			stp_pt_last_error = PTR_ERR(ev);
			continue;
		}
		s->events[p->slot] = ev;
		made++;
	}
	if (!made)
		goto out;
	get_task_struct(tsk);
	s->owner = tsk;
	atomic_set(&s->state, STP_PT_LIVE);
	if (s - stp_pt_slots >= stp_pt_used)
		WRITE_ONCE(stp_pt_used, s - stp_pt_slots + 1);
	smp_store_release(&s->task, tsk);
	/* An exiting thread sets PF_EXITING, then (the exit tracepoint) looks
	 * for its slot: it finds it, or this sees the flag. */
	smp_mb();
	if (READ_ONCE(tsk->flags) & PF_EXITING)
		stp_pt_kill(s);
out:
	mutex_unlock(&stp_pt_mutex);
}

/* ---- the reader ---- */

/* Interrupts off; ev is the current thread's. */
static u64 stp_pt_value(struct perf_event *ev)
{
	if (READ_ONCE(ev->oncpu) == smp_processor_id())
		ev->pmu->read(ev);
	return local64_read(&ev->count);
}

s64 stp_perf_task_read(unsigned slot)
{
	struct stp_pt_slot *slots;
	unsigned long flags;
	unsigned i, used;
	s64 v = 0;

	local_irq_save(flags);
	rcu_read_lock();
	slots = READ_ONCE(stp_pt_slots);
	used = READ_ONCE(stp_pt_used);
	for (i = 0; slots && slot < stp_pt_n && i < used; i++) {
		struct perf_event *ev;
		if (smp_load_acquire(&slots[i].task) != current)
			continue;
		ev = slots[i].events[slot];
		if (ev)
			v = stp_pt_value(ev);
		break;
	}
	rcu_read_unlock();
	local_irq_restore(flags);
	return v;
}

/* ---- hooks (tracepoints: preemption off, may not sleep) ---- */

/* Task work of the thread (sleepable): programs that appeared since the
 * start, then the thread's events. */
static void stp_pt_work(struct stp_task_work *w)
{
	struct stp_perf_probe *p;
	unsigned i;
	int rc;

	if (READ_ONCE(stp_pt_waiting)) {
		stp_pt_for_each_probe(p, i) {
			struct inode *inode;
			if (p->bound != STP_PERF_BOUND_PATH || READ_ONCE(p->inode))
				continue;
			inode = stp_uprobe_inode(p->path, &rc);
			if (inode && cmpxchg(&p->inode, NULL, inode) != NULL)
				iput(inode); /* another exec looked it up first */
		}
	}
	stp_pt_attach(current);
}

static void stp_pt_on_fork(void *data, struct task_struct *parent, struct task_struct *child)
{
	if (!(child->flags & PF_KTHREAD) && stp_pt_wanted(child))
		stp_twq_add(&stp_pt_works, child, stp_pt_work, 0, false);
}

static void stp_pt_on_exec(void *data, struct task_struct *p, pid_t old_pid,
			   struct linux_binprm *bprm)
{
	stp_pt_kill_task(current); /* the old image's */
	if (READ_ONCE(stp_pt_waiting) || stp_pt_wanted(current))
		stp_twq_add(&stp_pt_works, current, stp_pt_work, 0, false);
}

static void stp_pt_on_exit(void *data, struct task_struct *p)
{
	smp_mb(); /* PF_EXITING is set: see stp_pt_attach */
	stp_pt_kill_task(current);
}

static struct stp_tp_hook stp_pt_tracepoints[] = {
	{"sched_process_fork", stp_pt_on_fork},
	{"sched_process_exec", stp_pt_on_exec},
	{"sched_process_exit", stp_pt_on_exit},
};

/* ---- session start and stop ---- */

/* The threads that exist now and want events: pinned under RCU, given
 * their events outside it. */
static void stp_pt_attach_existing(void)
{
	struct task_struct **tasks, *g, *t;
	unsigned n = 0, i;

	tasks = kvmalloc_array(MAXPERFTASKS, sizeof(*tasks), GFP_KERNEL);
	if (!tasks) {
		atomic_inc(&stp_pt_full);
		return;
	}
	rcu_read_lock();
	for_each_process_thread(g, t) {
		if (!stp_pt_wanted(t))
			continue;
		if (n == MAXPERFTASKS) {
			atomic_inc(&stp_pt_full);
			continue;
		}
		get_task_struct(t);
		tasks[n++] = t;
	}
	rcu_read_unlock();
	for (i = 0; i < n; i++) {
		stp_pt_attach(tasks[i]);
		put_task_struct(tasks[i]);
	}
	kvfree(tasks);
}

/* Each probe's attr, tried on the session's own thread: what the kernel
 * refuses (a hardware counter the machine lacks) is a registration
 * error here rather than threads quietly left uncounted later. */
static int stp_pt_try_attrs(void)
{
	struct stp_perf_probe *p;
	unsigned i;

	stp_pt_for_each_probe(p, i) {
		struct perf_event *ev = stp_pt_create(p, current);
		if (IS_ERR(ev)) {
			stp_ctl_send("error probe %s (%s) registration failed: error %ld",
				     p->probe->pp, p->probe->loc, PTR_ERR(ev));
			return PTR_ERR(ev);
		}
		perf_event_release_kernel(ev);
	}
	return 0;
}

static void stp_perf_task_stop(void);

/* 0 or -errno (and an error message). */
static int stp_perf_task_start(void)
{
	struct stp_perf_probe *p;
	unsigned i;
	int rc;

	stp_pt_n = 0;
	stp_pt_waiting = 0;
	stp_pt_for_each_probe(p, i) {
		stp_pt_n = max(stp_pt_n, p->slot + 1);
		if (p->bound != STP_PERF_BOUND_PATH)
			continue;
		p->inode = stp_uprobe_inode(p->path, &rc);
		if (!p->inode && rc == -ENOENT) {
			stp_pt_waiting++; /* looked up again at each exec */
		} else if (!p->inode) {
			stp_ctl_send("error probe %s (%s) registration failed: error %d",
				     p->probe->pp, p->probe->loc, rc);
			return rc;
		}
	}
	if (!stp_pt_n)
		return 0;
	rc = stp_pt_try_attrs();
	if (rc)
		return rc;
	stp_pt_table = kvcalloc(MAXPERFTASKS, sizeof(*stp_pt_table), GFP_KERNEL);
	stp_pt_events = kvcalloc(array_size(MAXPERFTASKS, stp_pt_n), sizeof(*stp_pt_events),
				 GFP_KERNEL);
	if (!stp_pt_table || !stp_pt_events) {
		stp_ctl_send("error no memory for the perf counters of %d threads", MAXPERFTASKS);
		return -ENOMEM;
	}
	for (i = 0; i < MAXPERFTASKS; i++)
		stp_pt_table[i].events = &stp_pt_events[i * stp_pt_n];
	stp_pt_used = 0;
	atomic_set(&stp_pt_full, 0);
	atomic_set(&stp_pt_failed, 0);
	stp_pt_open = true;
	WRITE_ONCE(stp_pt_slots, stp_pt_table);
	stp_twq_open(&stp_pt_works);
	rc = stp_tp_hooks_register(stp_pt_tracepoints, ARRAY_SIZE(stp_pt_tracepoints), 0,
				   "perf counters");
	if (rc)
		return rc; /* the session's unregister undoes the rest */
	stp_pt_attach_existing();
	return 0;
}

/* Nothing left behind: no hook, no work running ours, no event, no
 * pinned task. Also after a partial start. */
static void stp_perf_task_stop(void)
{
	struct stp_perf_probe *p;
	unsigned i;

	stp_twq_refuse(&stp_pt_works);
	stp_tp_hooks_unregister(stp_pt_tracepoints, ARRAY_SIZE(stp_pt_tracepoints));
	stp_twq_drain(&stp_pt_works, HZ / 2);

	mutex_lock(&stp_pt_mutex);
	stp_pt_open = false;
	WRITE_ONCE(stp_pt_slots, NULL);
	synchronize_rcu(); /* no reader holds a slot */
	for (i = 0; stp_pt_table && i < MAXPERFTASKS; i++) {
		struct stp_pt_slot *s = &stp_pt_table[i];
		if (atomic_read(&s->state) != STP_PT_FREE)
			stp_pt_free_slot(s); /* sampling handlers: release waits for them */
	}
	mutex_unlock(&stp_pt_mutex);
	cancel_work_sync(&stp_pt_reaper);
	kvfree(stp_pt_table);
	kvfree(stp_pt_events);
	stp_pt_table = NULL;
	stp_pt_events = NULL;

	stp_pt_for_each_probe(p, i) {
		if (p->inode)
			iput(p->inode);
		p->inode = NULL;
	}
	if (atomic_read(&stp_pt_full))
		stp_ctl_send("warning %d threads had no perf counters: more than MAXPERFTASKS (%d)",
			     atomic_read(&stp_pt_full), MAXPERFTASKS);
	if (atomic_read(&stp_pt_failed))
		stp_ctl_send("warning %d task perf events could not be made: error %d",
			     atomic_read(&stp_pt_failed), stp_pt_last_error);
}
