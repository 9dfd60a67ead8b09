/* Task work that a tracepoint or kprobe queues for a task to run on its way
 * back to user space, and that the module's stop waits for: the task
 * finder's rescans (task_finder.c) and the process events' begin probes
 * (probes/process_events.c) share it.
 *
 * task_work_cancel() is not exported, so a queue cannot take back what it
 * queued: each work holds a module reference and counts as pending until
 * it has run; the stop refuses new work, then waits for the pending count
 * to reach 0 (a work runs at the task's next return to user space, before
 * it stops for a signal or ptrace event, or at its exit). Should that wait
 * time out, the references keep the module loaded rather than freed under
 * the works. */
#ifndef STP_TASK_WORK_QUEUE_H
#define STP_TASK_WORK_QUEUE_H

#include <linux/task_work.h>

struct stp_task_work;
/* Runs in the task (current), sleepable, with current->mm set. */
typedef void (*stp_task_work_fn)(struct stp_task_work *w);

struct stp_task_work_queue {
	const char *what;       /* "task finder": names the queue in warnings */
	atomic_t accepting;     /* works may be queued, and run their fn */
	atomic_t pending;       /* queued, not finished */
	atomic_t lost;          /* not queued: no memory */
	bool queued_any;
	wait_queue_head_t idle;
};

struct stp_task_work {
	struct callback_head cb;
	struct stp_task_work_queue *q;
	stp_task_work_fn fn;
	unsigned long arg; /* the queuer's: a hint, a kind */
};

#define STP_TASK_WORK_QUEUE(name, what_)                                       \
	struct stp_task_work_queue name = {                                    \
		.what = what_,                                                 \
		.accepting = ATOMIC_INIT(0),                                   \
		.pending = ATOMIC_INIT(0),                                     \
		.lost = ATOMIC_INIT(0),                                        \
		.idle = __WAIT_QUEUE_HEAD_INITIALIZER(name.idle),              \
	}

static inline bool stp_twq_accepting(struct stp_task_work_queue *q)
{
	return atomic_read(&q->accepting);
}

static void stp_twq_done(struct stp_task_work_queue *q)
{
	if (atomic_dec_and_test(&q->pending))
		wake_up(&q->idle);
	module_put(THIS_MODULE);
}

static void stp_twq_run(struct callback_head *cb)
{
	struct stp_task_work *w = container_of(cb, struct stp_task_work, cb);
	struct stp_task_work_queue *q = w->q;

	/* current->mm is NULL when the work runs from the task's exit */
	if (current->mm && stp_twq_accepting(q))
		w->fn(w);
	kfree(w);
	stp_twq_done(q);
}

/* Any context (a tracepoint's, preemption off): runs fn(arg) as task work
 * of `tsk`; `notify` interrupts a sleep to run it, as a signal would (the
 * system call restarts), else it runs at the next return to user space. */
static void stp_twq_add(struct stp_task_work_queue *q, struct task_struct *tsk,
			stp_task_work_fn fn, unsigned long arg, bool notify)
{
	struct stp_task_work *w;

	if (!stp_twq_accepting(q))
		return;
	w = kmalloc(sizeof(*w), GFP_ATOMIC | __GFP_NOWARN);
	if (!w) {
		atomic_inc(&q->lost);
		return;
	}
	init_task_work(&w->cb, stp_twq_run);
	w->q = q;
	w->fn = fn;
	w->arg = arg;
	__module_get(THIS_MODULE);
	atomic_inc(&q->pending);
	WRITE_ONCE(q->queued_any, true);
	if (task_work_add(tsk, &w->cb, notify ? TWA_SIGNAL : TWA_RESUME)) {
		/* the task is past its exit's task work */
		kfree(w);
		stp_twq_done(q);
	}
}

static inline void stp_twq_open(struct stp_task_work_queue *q)
{
	atomic_set(&q->lost, 0);
	WRITE_ONCE(q->queued_any, false);
	atomic_set(&q->accepting, 1);
}

/* No new work is queued, and works still pending skip their fn. */
static inline void stp_twq_refuse(struct stp_task_work_queue *q)
{
	atomic_set(&q->accepting, 0);
}

/* After stp_twq_refuse() and once nothing can queue any more (the hooks
 * that queue are unregistered): waits up to `timeout` jiffies for the
 * pending works, warns about what is left or was lost. */
static void stp_twq_drain(struct stp_task_work_queue *q, long timeout)
{
	if (!wait_event_timeout(q->idle, !atomic_read(&q->pending), timeout)) {
		stp_ctl_send("warning %d %s callbacks are still queued; the module stays "
			     "loaded until they have run", atomic_read(&q->pending), q->what);
	} else if (READ_ONCE(q->queued_any)) {
		/* A work may still be in its last instructions (after its
		 * count went to 0): RCU-tasks waits until every task has left
		 * them, as it does for ftrace trampolines. */
		synchronize_rcu_tasks();
	}
	if (atomic_read(&q->lost))
		stp_ctl_send("warning the %s missed %d events (out of memory)", q->what,
			     atomic_read(&q->lost));
}

#endif
