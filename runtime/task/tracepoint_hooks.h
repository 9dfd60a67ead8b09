/* Kernel tracepoints hooked by name: the register_trace_* helpers are not
 * exported to modules, so a table of hooks is matched against
 * for_each_kernel_tracepoint() and each registered with
 * tracepoint_probe_register(). The task finder (task_finder.c), the
 * process events (probes/process_events.c) and the task-bound perf
 * counters (probes/perf_task.c) each keep such a table. */
#ifndef STP_TRACEPOINT_HOOKS_H
#define STP_TRACEPOINT_HOOKS_H

#include <linux/tracepoint.h>

struct stp_tp_hook {
	const char *name;       /* "sched_process_exec" */
	void *probe;            /* the callback, of the tracepoint's prototype */
	unsigned need;          /* the owner's: hooked when need & wanted (0: always) */
	struct tracepoint *tp;  /* found by name */
	bool registered;
};

struct stp_tp_hook_table {
	struct stp_tp_hook *hooks;
	unsigned n;
};

static void stp_tp_hooks_match(struct tracepoint *tp, void *priv)
{
	struct stp_tp_hook_table *t = priv;
	unsigned i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(tp->name, t->hooks[i].name))
			t->hooks[i].tp = tp;
}

/* Hooks those of hooks[0..n) whose need is 0 or meets `wanted`. On a
 * failure the error names `who` and the tracepoint; the hooks already
 * registered stay so (stp_tp_hooks_unregister undoes them). */
static int stp_tp_hooks_register(struct stp_tp_hook *hooks, unsigned n, unsigned wanted,
				 const char *who)
{
	struct stp_tp_hook_table t = { hooks, n };
	unsigned i;
	int rc;

	for_each_kernel_tracepoint(stp_tp_hooks_match, &t);
	for (i = 0; i < n; i++) {
		struct stp_tp_hook *h = &hooks[i];
		if (h->need && !(h->need & wanted))
			continue;
		rc = h->tp ? tracepoint_probe_register(h->tp, h->probe, NULL) : -ENOENT;
		if (rc) {
			stp_ctl_send("error %s cannot hook the kernel tracepoint %s: error %d", who,
				     h->name, rc);
			return rc;
		}
		h->registered = true;
	}
	return 0;
}

/* Unhooks what is registered, then waits until no callback of ours runs. */
static void stp_tp_hooks_unregister(struct stp_tp_hook *hooks, unsigned n)
{
	bool any = false;
	unsigned i;

	for (i = 0; i < n; i++) {
		if (hooks[i].registered) {
			tracepoint_probe_unregister(hooks[i].tp, hooks[i].probe, NULL);
			hooks[i].registered = false;
			any = true;
		}
	}
	if (any)
		tracepoint_synchronize_unregister();
}

#endif /* STP_TRACEPOINT_HOOKS_H */
