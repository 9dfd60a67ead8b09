/* Tracepoint probes, kernel.trace("SYSTEM:NAME"). The register_trace_*
 * helpers are not exported to modules, so each tracepoint is found by name
 * among the kernel's (for_each_kernel_tracepoint) and hooked with
 * tracepoint_probe_register, both exported. The function hooked is the
 * generated one with the tracepoint's prototype (struct stp_tracepoint's
 * func): it saves the arguments and calls stp_tracepoint_fire().
 * Registering the first probe on a syscall tracepoint makes the kernel flag
 * every task for syscall tracing (its regfunc); the last one unregistered
 * clears it. */
#include <linux/tracepoint.h>

static void stp_tracepoint_find(struct tracepoint *tp, void *priv)
{
	struct stp_tracepoint *t = priv;
	if (!t->tp && strcmp(tp->name, t->name) == 0)
		t->tp = tp;
}

/* Runs in the tracepoint's caller (often with preemption or interrupts
 * off): `args` is on the probe function's stack, read by STP_TP_ARG. */
void stp_tracepoint_fire(struct stp_tracepoint *t, const u64 *args)
{
	stp_run_event_probe_data(t->probe, NULL, (void *)args, 0, false);
}

/* Returns 0, or the first registration error (a missing tracepoint is
 * -ENOENT). */
static int stp_tracepoints_register(void)
{
	struct stp_tracepoint *tps = stp_kind_table(TRACEPOINT)->probes;
	unsigned i;
	int rc;

	for (i = 0; i < stp_kind_table(TRACEPOINT)->n; i++) {
		struct stp_tracepoint *t = &tps[i];
		t->tp = NULL;
		for_each_kernel_tracepoint(stp_tracepoint_find, t);
		rc = t->tp ? tracepoint_probe_register(t->tp, t->func, t) : -ENOENT;
		t->registered = rc == 0;
		/* A wildcard's match that this kernel does not have built in
		 * (the headers declare more than the config enables). */
		if (rc == -ENOENT && t->optional)
			continue;
		if (rc) {
			stp_ctl_send("error probe %s (%s) registration failed: error %d",
				     t->probe->pp, t->probe->loc, rc);
			return rc;
		}
	}
	return 0;
}

static void stp_tracepoints_unregister(void)
{
	struct stp_tracepoint *tps = stp_kind_table(TRACEPOINT)->probes;
	unsigned i;
	bool any = false;

	for (i = 0; i < stp_kind_table(TRACEPOINT)->n; i++) {
		struct stp_tracepoint *t = &tps[i];
		if (!t->registered)
			continue;
		tracepoint_probe_unregister(t->tp, t->func, t);
		t->registered = false;
		any = true;
	}
	/* no handler runs on once this returns */
	if (any)
		tracepoint_synchronize_unregister();
}

static const struct stp_probe_kind_ops stp_kind_tracepoints = {
	.name = "tracepoint",
	.register_probes = stp_tracepoints_register,
	.unregister_probes = stp_tracepoints_unregister, /* waits for running handlers */
};
