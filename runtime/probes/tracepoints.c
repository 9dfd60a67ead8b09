/* Tracepoint probes, kernel.trace("SYSTEM:NAME"). The register_trace_*
 * helpers are not exported to modules, so each tracepoint is found by name
 * among the kernel's (for_each_kernel_tracepoint) and hooked with
 * tracepoint_probe_register, both exported. The function hooked is the
 * generated one with the tracepoint's prototype (struct stp_tracepoint's
 * func): it saves the arguments and calls stp_tracepoint_fire().
 * Registering the first probe on a syscall tracepoint makes the kernel flag
 * every task for syscall tracing (its regfunc); the last one unregistered
 * clears it. */
#include <linux/module.h>
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

/* ---- tracepoints of modules ----
 * for_each_kernel_tracepoint sees only the kernel's own. The tracepoint
 * module notifier (exported) is called, when it is registered, for every
 * loaded module that has tracepoints, and later for each one loading or
 * going away: a probe whose tracepoint the kernel lacks is hooked there
 * when a module has it. The module is pinned (try_module_get) while
 * hooked, so its tracepoint cannot vanish under the probe; the stop
 * unhooks it and lets it go. */
static bool stp_tp_notifier_registered;

static struct stp_tracepoint *stp_tracepoint_at(unsigned i)
{
	return &((struct stp_tracepoint *)stp_kind_table(TRACEPOINT)->probes)[i];
}
static DEFINE_MUTEX(stp_tp_module_lock); /* t->tp, t->mod, t->registered of module probes */

static void stp_tracepoint_hook_module(struct stp_tracepoint *t, struct module *mod)
{
	unsigned i;
	int rc;

	for (i = 0; i < mod->num_tracepoints; i++) {
		struct tracepoint *tp = tracepoint_ptr_deref(&mod->tracepoints_ptrs[i]);
		if (strcmp(tp->name, t->name) != 0)
			continue;
		if (!try_module_get(mod))
			return;
		rc = tracepoint_probe_register(tp, t->func, t);
		if (rc) {
			module_put(mod);
			stp_ctl_send("warning probe %s (%s) registration in module %s failed: error %d",
				     t->probe->pp, t->probe->loc, mod->name, rc);
			return;
		}
		t->tp = tp;
		t->mod = mod;
		t->registered = true;
		return;
	}
}

static int stp_tracepoint_module_notify(struct notifier_block *nb, unsigned long val, void *data)
{
	struct tp_module *tp_mod = data;
	unsigned i;

	if (val != MODULE_STATE_COMING)
		return NOTIFY_OK; /* a hooked module cannot be going: it is pinned */
	mutex_lock(&stp_tp_module_lock);
	for (i = 0; i < stp_kind_table(TRACEPOINT)->n; i++) {
		struct stp_tracepoint *t = stp_tracepoint_at(i);
		if (!t->registered)
			stp_tracepoint_hook_module(t, tp_mod->mod);
	}
	mutex_unlock(&stp_tp_module_lock);
	return NOTIFY_OK;
}

static struct notifier_block stp_tp_module_nb = {
	.notifier_call = stp_tracepoint_module_notify,
};

/* Returns 0, or the first registration error (a tracepoint that neither
 * the kernel nor a loaded module has is -ENOENT, unless optional). */
static int stp_tracepoints_register(void)
{
	unsigned i;
	int rc;
	bool need_modules = false;

	for (i = 0; i < stp_kind_table(TRACEPOINT)->n; i++) {
		struct stp_tracepoint *t = stp_tracepoint_at(i);
		t->tp = NULL;
		t->mod = NULL;
		t->registered = false;
		for_each_kernel_tracepoint(stp_tracepoint_find, t);
		if (!t->tp) {
			need_modules = true;
			continue;
		}
		rc = tracepoint_probe_register(t->tp, t->func, t);
		t->registered = rc == 0;
		if (rc) {
			stp_ctl_send("error probe %s (%s) registration failed: error %d",
				     t->probe->pp, t->probe->loc, rc);
			return rc;
		}
	}
	if (!need_modules)
		return 0;
	/* Hooks the loaded modules' tracepoints before returning. */
	rc = register_tracepoint_module_notifier(&stp_tp_module_nb);
	if (rc) {
		stp_ctl_send("error cannot watch modules for tracepoints: error %d", rc);
		return rc;
	}
	stp_tp_notifier_registered = true;
	mutex_lock(&stp_tp_module_lock);
	for (i = 0; i < stp_kind_table(TRACEPOINT)->n; i++) {
		struct stp_tracepoint *t = stp_tracepoint_at(i);
		/* A wildcard's match that neither the kernel nor a loaded
		 * module has (the headers declare more than the config
		 * builds) waits for a module that brings it, silently. */
		if (!t->registered && !t->optional) {
			mutex_unlock(&stp_tp_module_lock);
			stp_ctl_send("error probe %s (%s) registration failed: no tracepoint '%s' "
				     "in the kernel or a loaded module",
				     t->probe->pp, t->probe->loc, t->name);
			return -ENOENT;
		}
	}
	mutex_unlock(&stp_tp_module_lock);
	return 0;
}

static void stp_tracepoints_unregister(void)
{
	unsigned i;
	bool any = false;

	/* No module is hooked once this returns. */
	if (stp_tp_notifier_registered) {
		unregister_tracepoint_module_notifier(&stp_tp_module_nb);
		stp_tp_notifier_registered = false;
	}
	for (i = 0; i < stp_kind_table(TRACEPOINT)->n; i++) {
		struct stp_tracepoint *t = stp_tracepoint_at(i);
		if (!t->registered)
			continue;
		tracepoint_probe_unregister(t->tp, t->func, t);
		t->registered = false;
		any = true;
	}
	/* no handler runs on once this returns */
	if (any)
		tracepoint_synchronize_unregister();
	for (i = 0; i < stp_kind_table(TRACEPOINT)->n; i++) {
		struct stp_tracepoint *t = stp_tracepoint_at(i);
		if (t->mod) {
			module_put(t->mod);
			t->mod = NULL;
		}
		t->tp = NULL;
	}
}

static const struct stp_probe_kind_ops stp_kind_tracepoints = {
	.name = "tracepoint",
	.register_probes = stp_tracepoints_register,
	.unregister_probes = stp_tracepoints_unregister, /* waits for running handlers */
};
