/* How a hit enters its probe's handler, for the runtime's kernel callbacks
 * and for the ones generated per handler (the kprobe callbacks at the end):
 * inline, so that a generated callback calls its handler directly, not
 * through the probe's pointer (an indirect call is a retpoline on these
 * kernels: about a tenth of a counter probe's cost,
 * bench/run/context-variants). */
#ifndef STP_PROBE_ENTRY_H
#define STP_PROBE_ENTRY_H

/* Whether event probes run (session_state.c), and the per-CPU contexts. */
#define STP_EVENTS_RUN 1
#define STP_EVENTS_CLOSED 2
extern atomic_t stp_events;
extern struct stp_context **stp_contexts; /* [nr_cpu_ids] */

static inline bool stp_events_run(void)
{
	return atomic_read(&stp_events) == STP_EVENTS_RUN;
}

/* context.c: commits a handler's output; reports its error. */
void stp_flush(struct stp_context *c);
void stp_report_error(struct stp_context *c);

/* Runs `p` on this CPU. Interrupts stay off for the whole handler, so the
 * context cannot be shared; a probe that fires while this CPU is already in
 * a handler (an interrupt, an NMI) is skipped and counted, never nested.
 * `entry_data`: a kretprobe call's @entry values (or NULL).
 * `kprobe_addr`: a kprobe's probed address (its regs->ip is one past it
 * on x86), or a kretprobe's (then `kreturn`); 0 for other probes.
 * `handler`: p's handler; a constant where the caller is generated for
 * that handler (the kprobe callbacks below), so the call is direct.
 * Returns whether the handler ran. Inline into each kind's handler, with
 * the rare paths out of line: a call and return less per hit. */
static __always_inline bool stp_run_handler(const struct stp_probe *p, stp_handler_fn handler,
					    struct pt_regs *regs, void *entry_data,
					    unsigned long kprobe_addr, bool kreturn)
{
	unsigned long flags;
	struct stp_context *c;

	local_irq_save(flags);
	c = stp_contexts[smp_processor_id()];
	/* Only this CPU touches its context's flag, with interrupts off: what
	 * can come between the test and the set is an NMI (a perf or
	 * watchpoint probe), which runs to its end first. So a plain flag
	 * does what a locked cmpxchg did, as the kernel's own recursion
	 * guards (trace_recursion) do; the barriers keep the context's
	 * stores inside it. */
	if (unlikely(READ_ONCE(c->busy))) {
		stp_count_skipped();
		local_irq_restore(flags);
		return false;
	}
	WRITE_ONCE(c->busy, 1);
	barrier();
	/* in the order of struct stp_context: the compiler merges them */
	c->kreturn = kreturn;
	c->regparm = 0;
	c->returnval_set = 0;
	c->next_overload = 0;
	c->aborted = 0;
	c->ustack_walked = false;
	c->kstack_walked = false;
	c->pbuf_len = 0;
	c->frame_top = 0;
	c->nesting = 0;
	c->rx_nslots = 0;
	c->actions = 0;
	c->probe = p;
	c->regs = regs;
	c->kprobe_addr = kprobe_addr;
	c->entry_data = entry_data;
	c->last_error = NULL;
	c->error_loc = NULL;
	c->stmt_loc = NULL;
	handler(c);
	if (c->pbuf_len)
		stp_flush(c);
	if (unlikely(c->last_error) && !c->aborted)
		stp_report_error(c);
	barrier();
	WRITE_ONCE(c->busy, 0);
	local_irq_restore(flags);
	return true;
}

/* Event probes (timers, kprobes...) run only while the session runs:
 * not before the begin probes are done, not once exit() was called (as in
 * SystemTap, a timer that fires between exit() and the stop runs no more
 * rounds), not while the end probes run.
 * `regs` (or NULL) is what $return and friends read. */
static __always_inline bool stp_run_event_handler(const struct stp_probe *p, stp_handler_fn handler,
						  struct pt_regs *regs, void *entry_data,
						  unsigned long kprobe_addr, bool kreturn)
{
	if (likely(stp_events_run()))
		return stp_run_handler(p, handler, regs, entry_data, kprobe_addr, kreturn);
	return false;
}

static __always_inline bool stp_run_probe_data(const struct stp_probe *p, struct pt_regs *regs,
					       void *entry_data, unsigned long kprobe_addr,
					       bool kreturn)
{
	return stp_run_handler(p, p->handler, regs, entry_data, kprobe_addr, kreturn);
}

static __always_inline bool stp_run_event_probe_data(const struct stp_probe *p, struct pt_regs *regs,
						     void *entry_data, unsigned long kprobe_addr,
						     bool kreturn)
{
	return stp_run_event_handler(p, p->handler, regs, entry_data, kprobe_addr, kreturn);
}

#ifdef STP_FEATURE_KPROBE
#include "probes/kprobe_entry.h"
#endif

#endif /* STP_PROBE_ENTRY_H */
