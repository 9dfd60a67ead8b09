/* Tracepoint probes, kernel.trace("NAME"): the raw_syscalls tracepoints
 * sys_enter(regs, id) and sys_exit(regs, ret), for syscall_any. The
 * register_trace_* helpers are not exported to modules, so the tracepoint
 * is found by name among the kernel's (for_each_kernel_tracepoint) and
 * hooked with tracepoint_probe_register, both exported. Registering the
 * first probe on a syscall tracepoint makes the kernel flag every task for
 * syscall tracing (its regfunc); the last one unregistered clears it. */
#include <linux/tracepoint.h>

static void stp_tracepoint_find(struct tracepoint *tp, void *priv)
{
	struct stp_tracepoint *t = priv;
	if (!t->tp && strcmp(tp->name, t->name) == 0)
		t->tp = tp;
}

/* The probe of both: (regs, long). Runs in the task's system call path,
 * preemption off; the probe reads what it needs from the task's saved
 * registers, as the syscall tapset does. */
static void stp_tracepoint_syscall(void *data, struct pt_regs *regs, long arg)
{
	struct stp_tracepoint *t = data;
	stp_run_event_probe(t->probe);
}

/* Returns 0, or the first registration error (a missing tracepoint is
 * -ENOENT). */
static int stp_tracepoints_register(void)
{
	unsigned i;
	int rc;

	for (i = 0; i < stp_module.n_tracepoints; i++) {
		struct stp_tracepoint *t = &stp_module.tracepoints[i];
		t->tp = NULL;
		for_each_kernel_tracepoint(stp_tracepoint_find, t);
		rc = t->tp ? tracepoint_probe_register(t->tp, (void *)stp_tracepoint_syscall, t)
			   : -ENOENT;
		t->registered = rc == 0;
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
	unsigned i;
	bool any = false;

	for (i = 0; i < stp_module.n_tracepoints; i++) {
		struct stp_tracepoint *t = &stp_module.tracepoints[i];
		if (!t->registered)
			continue;
		tracepoint_probe_unregister(t->tp, (void *)stp_tracepoint_syscall, t);
		t->registered = false;
		any = true;
	}
	/* no handler runs on once this returns */
	if (any)
		tracepoint_synchronize_unregister();
}
