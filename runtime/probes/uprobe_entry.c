/* @entry values of user return probes (included by uprobes.c).
 *
 * A kretprobe keeps each call's @entry values in its instance data; the
 * kernel's uretprobes keep nothing per call for their consumers. So the
 * return probe's entry part (passes/entry_values.cpp) runs from the same
 * consumer's entry handler, into a record of a fixed pool, and the return
 * handler finds that call's record again by thread and stack pointer: at
 * the entry the stack pointer points at the return address, and the return
 * pops it, so the caller's stack pointer at the return is the entry's plus
 * one word. Recursion and threads each get their own records; a record
 * whose call can no longer return to us (longjmp past it, a return the
 * session missed) is dropped when the thread's stack has unwound past it,
 * and all of a thread's records when it exits or execs (the task finder's
 * hooks call stp_uentry_forget): a dead thread's records would otherwise
 * hold their slots, and match a new thread that got its task_struct.
 *
 * The pool is allocated at registration (STP_UENTRY_MAX records, each
 * entry_data_size bytes of values); when it is full a call gets none, and
 * its return probe is skipped, as a kretprobe out of instances skips. */
#ifndef STP_UENTRY_MAX
#define STP_UENTRY_MAX 512
#endif

struct stp_uentry {
	const struct task_struct *task; /* identity only, never dereferenced; NULL: free */
	const struct stp_uprobe *u;
	unsigned long sp;               /* the user stack pointer at the function's entry */
};

static struct stp_uentry *stp_uentries;
static char *stp_uentry_data;
static size_t stp_uentry_size; /* bytes of values per record */
static DEFINE_RAW_SPINLOCK(stp_uentry_lock);

static int stp_uentry_alloc(size_t size)
{
	if (stp_uentries)
		return size <= stp_uentry_size ? 0 : -EINVAL; /* one stp_entry_slots for all */
	stp_uentries = kcalloc(STP_UENTRY_MAX, sizeof(*stp_uentries), GFP_KERNEL);
	stp_uentry_data = kcalloc(STP_UENTRY_MAX, size, GFP_KERNEL);
	if (!stp_uentries || !stp_uentry_data) {
		kfree(stp_uentries);
		kfree(stp_uentry_data);
		stp_uentries = NULL;
		stp_uentry_data = NULL;
		return -ENOMEM;
	}
	stp_uentry_size = size;
	return 0;
}

/* After every uprobe is unregistered: no handler runs any more, but the
 * task finder's exit hook may (stp_uentry_forget), hence the lock. */
static void stp_uentry_free(void)
{
	struct stp_uentry *e;
	char *data;
	unsigned long flags;

	raw_spin_lock_irqsave(&stp_uentry_lock, flags);
	e = stp_uentries;
	data = stp_uentry_data;
	stp_uentries = NULL;
	stp_uentry_data = NULL;
	stp_uentry_size = 0;
	raw_spin_unlock_irqrestore(&stp_uentry_lock, flags);
	kfree(e);
	kfree(data);
}

/* `tsk` (current) exits or execs: none of its calls returns to us any
 * more. Bounded: one pass over the pool. */
static void stp_uentry_forget(struct task_struct *tsk)
{
	unsigned long flags;
	unsigned i;

	if (!READ_ONCE(stp_uentries))
		return;
	raw_spin_lock_irqsave(&stp_uentry_lock, flags);
	for (i = 0; stp_uentries && i < STP_UENTRY_MAX; i++)
		if (stp_uentries[i].task == tsk)
			stp_uentries[i].task = NULL;
	raw_spin_unlock_irqrestore(&stp_uentry_lock, flags);
}

static unsigned long stp_uentry_word(void)
{
	return stp_task_is32() ? 4 : sizeof(long);
}

/* Frees this thread's records at or below `sp` (deeper frames than a
 * caller at `sp`: gone). Under the lock. */
static void stp_uentry_drop_below(unsigned long sp)
{
	unsigned i;

	for (i = 0; i < STP_UENTRY_MAX; i++)
		if (stp_uentries[i].task == current && stp_uentries[i].sp <= sp)
			stp_uentries[i].task = NULL;
}

/* The entry handler of a return probe with @entry values: runs its entry
 * part into a new record of this call. */
static void stp_uentry_enter(struct stp_uprobe *u, struct pt_regs *regs)
{
	unsigned long sp = user_stack_pointer(regs), flags;
	struct stp_uentry *e = NULL;
	unsigned i;

	if (!stp_uentries)
		return;
	raw_spin_lock_irqsave(&stp_uentry_lock, flags);
	stp_uentry_drop_below(sp);
	for (i = 0; i < STP_UENTRY_MAX && !e; i++)
		if (!stp_uentries[i].task)
			e = &stp_uentries[i];
	if (e) {
		e->task = current;
		e->u = u;
		e->sp = sp;
	}
	raw_spin_unlock_irqrestore(&stp_uentry_lock, flags);
	if (!e)
		return;
	memset(stp_uentry_data + (e - stp_uentries) * stp_uentry_size, 0, stp_uentry_size);
	/* Only this thread reads or frees its record, and not before its
	 * return: the values are written outside the lock. */
	if (!stp_uprobe_run_data(u->entry, u, regs, instruction_pointer(regs),
				 stp_uentry_data + (e - stp_uentries) * stp_uentry_size))
		smp_store_release(&e->task, NULL); /* no entry values: skip the return */
}

/* The return handler of a return probe with @entry values: runs it with
 * this call's record, then frees the record. A call whose entry part did
 * not run has none, and its return probe is skipped. */
static void stp_uentry_return(struct stp_uprobe *u, struct pt_regs *regs, unsigned long func)
{
	unsigned long sp = user_stack_pointer(regs) - stp_uentry_word(), flags;
	struct stp_uentry *e = NULL;
	unsigned i;

	if (!stp_uentries)
		return;
	raw_spin_lock_irqsave(&stp_uentry_lock, flags);
	for (i = 0; i < STP_UENTRY_MAX && !e; i++)
		if (stp_uentries[i].task == current && stp_uentries[i].u == u &&
		    stp_uentries[i].sp == sp)
			e = &stp_uentries[i];
	stp_uentry_drop_below(sp - 1); /* deeper calls that never returned */
	raw_spin_unlock_irqrestore(&stp_uentry_lock, flags);
	if (!e)
		return;
	/* Only this thread frees its records: e stays ours while it runs. */
	stp_uprobe_run_data(u->probe, u, regs, func,
			    stp_uentry_data + (e - stp_uentries) * stp_uentry_size);
	smp_store_release(&e->task, NULL);
}
