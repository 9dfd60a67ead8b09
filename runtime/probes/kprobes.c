/* kprobes and kretprobes on kernel functions, by symbol name: the kernel
 * resolves the name (and "module:name") itself at registration, so no
 * address from System.map or kallsyms is needed here; the copies of a
 * name several kernel functions share, by their offset from _printk
 * (the translator read it from the same release's kallsyms), checked
 * against the running kernel's kallsyms; and
 * kprobe.statement(ADDR).absolute, by address (guru mode). */

/* Places kp: by the symbol's name, or at an address. A copy's address is
 * checked to be the start of a function of its name first: the offset
 * comes from the kallsyms of a kernel of this release, and a kernel
 * rebuilt under the same release would have moved it into some other
 * function. Returns 0 or -ENOENT. */
static int stp_kprobe_place(const struct stp_kprobe *k, struct kprobe *kp)
{
	char at[160]; /* "name+0x0/0x..." is enough to compare */
	size_t n;

	if (!k->from_printk) {
		kp->symbol_name = k->symbol;
		if (!k->symbol)
			kp->addr = (kprobe_opcode_t *)k->addr;
		return 0;
	}
	kp->addr = (kprobe_opcode_t *)((unsigned long)&_printk + k->addr);
	snprintf(at, sizeof(at), "%pS", kp->addr);
	n = strlen(k->symbol);
	if (strncmp(at, k->symbol, n) || strncmp(at + n, "+0x0/", 5)) {
		stp_ctl_send("warning probe %s (%s): %s is not at the address this release's"
			     " kernel symbols give, %s is (refresh the kernel-symbols cache)",
			     k->probe->pp, k->probe->loc, k->symbol, at);
		return -ENOENT;
	}
	return 0;
}

/* For a .callee probe, at the callee's first instruction: whether the
 * return address on the stack is one of the caller's calls to it, and so
 * on up the levels of .callees(N) (SystemTap's check; -DSTAP_CALLEE_MATCHALL
 * turns it off). A return address a return probe already replaced with
 * the kernel's trampoline does not match: the callee probes are
 * registered after the others so that theirs run first. */
bool stp_kprobe_called_from(const struct stp_kprobe *k, struct pt_regs *regs)
{
#ifndef STAP_CALLEE_MATCHALL
	unsigned long slot = kernel_stack_pointer(regs), ret;
	unsigned level, i;

	for (level = 0; k->n_callsites; level++) {
		const struct stp_callsite *hit = NULL;
		bool any = false;
		if (copy_from_kernel_nofault(&ret, (void *)slot, sizeof(ret)))
			return false;
		for (i = 0; i < k->n_callsites && !hit; i++) {
			const struct stp_callsite *s = &k->callsites[i];
			unsigned long base;
			if (s->level != level)
				continue;
			any = true;
			base = s->module ? stp_module_section(s->module, s->section)
					 : (unsigned long)&_printk;
			if (base && ret == base + s->offset)
				hit = s;
		}
		if (!any)
			return true; /* every level matched */
		if (!hit)
			return false;
		if (hit->frame_size < 0)
			return true; /* the frames above cannot be found */
		slot += hit->frame_size;
	}
#endif
	return true;
}

/* Hits of ftrace-based kprobes that came through a breakpoint
 * (kprobe_entry.h); reported at the session's end. */
atomic_t stp_kprobe_int3_hits = ATOMIC_INIT(0);

/* The shared callbacks, for modules with many handlers: the handler's
 * call goes through the probe's pointer. */
static int stp_kprobe_pre(struct kprobe *kp, struct pt_regs *regs)
{
	const struct stp_kprobe *k = container_of(kp, struct stp_kprobe, kp);
	return stp_kprobe_pre_run(kp, regs, k->probe->handler);
}

/* Computes a call's @entry values into its instance data. Nonzero tells
 * the kernel not to hook this call's return: a return probe whose entry
 * did not run (session not running yet, CPU busy in another probe) would
 * have no values to read, so it is skipped too. */
static int stp_kretprobe_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct stp_kprobe *k = container_of(get_kretprobe(ri), struct stp_kprobe, krp);
	if (!stp_kprobe_called_from(k, regs))
		return 1; /* a .callee return probe: not from its caller */
	if (!k->entry)
		return 0;
	memset(ri->data, 0, k->entry_data_size);
	return stp_run_event_probe_data(k->entry, regs, ri->data, (unsigned long)k->krp.kp.addr, false) ? 0 : 1;
}

static int stp_kretprobe_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	const struct stp_kprobe *k = container_of(get_kretprobe(ri), struct stp_kprobe, krp);
	return stp_kretprobe_run(ri, regs, k->probe->handler);
}

/* Returns 0, or the first error of a probe that is not optional. */
static int stp_kprobes_register(void)
{
	struct stp_kprobe *kprobes = stp_kind_table(KPROBE)->probes;
	unsigned i, n = stp_kind_table(KPROBE)->n;
	int rc;

	/* Two rounds: the callee probes last, so that at an address shared
	 * with a return probe theirs run first (the kernel runs the handlers
	 * of one address newest first) and see the real return address. */
	for (i = 0; i < 2 * n; i++) {
		struct stp_kprobe *k = &kprobes[i % n];
		if ((i < n) != !k->n_callsites)
			continue;
		if (k->is_return) {
			memset(&k->krp, 0, sizeof(k->krp));
			rc = stp_kprobe_place(k, &k->krp.kp);
			k->krp.handler = k->ret_handler ? k->ret_handler : stp_kretprobe_handler;
			k->krp.maxactive = k->maxactive;
			if (k->entry || k->n_callsites) {
				k->krp.entry_handler = stp_kretprobe_entry;
				k->krp.data_size = k->entry_data_size;
			}
			if (!rc)
				rc = register_kretprobe(&k->krp);
		} else {
			memset(&k->kp, 0, sizeof(k->kp));
			rc = stp_kprobe_place(k, &k->kp);
			k->kp.offset = k->offset;
			k->kp.pre_handler = k->pre_handler ? k->pre_handler : stp_kprobe_pre;
			if (!rc)
				rc = register_kprobe(&k->kp);
		}
		k->registered = rc == 0;
		if (rc && !k->optional) {
			stp_ctl_send("error probe %s (%s) registration failed: error %d",
				     k->probe->pp, k->probe->loc, rc);
			return rc;
		}
	}
	return 0;
}

/* Unregisters all, in two batches: each unregister_kprobe() waits for an
 * RCU grace period, which under emulation is tens of milliseconds; the
 * batch calls wait once (syscall.* has some 1500 probes). One by one when
 * the arrays cannot be had. */
static void stp_kprobes_unregister(void)
{
	struct stp_kprobe *kprobes = stp_kind_table(KPROBE)->probes;
	struct kprobe **kps;
	struct kretprobe **krps;
	unsigned i, nk = 0, nr = 0, n = stp_kind_table(KPROBE)->n;

	if (!n)
		return;
	kps = kcalloc(n, sizeof(*kps), GFP_KERNEL);
	krps = kcalloc(n, sizeof(*krps), GFP_KERNEL);
	for (i = 0; i < n; i++) {
		struct stp_kprobe *k = &kprobes[i];
		if (!k->registered)
			continue;
		if (k->is_return) {
			if (krps)
				krps[nr++] = &k->krp;
			else
				unregister_kretprobe(&k->krp);
		} else {
			if (kps)
				kps[nk++] = &k->kp;
			else
				unregister_kprobe(&k->kp);
		}
	}
	if (nk)
		unregister_kprobes(kps, nk);
	if (nr)
		unregister_kretprobes(krps, nr);
	kfree(kps);
	kfree(krps);
	for (i = 0; i < n; i++) {
		struct stp_kprobe *k = &kprobes[i];
		if (!k->registered)
			continue;
		if (k->is_return && k->krp.nmissed)
			stp_ctl_send("warning probe %s missed %d return(s) (raise .maxactive)",
				     k->probe->pp, k->krp.nmissed);
		/* Hits the kernel did not hand to us count as skipped probes, as
		 * in SystemTap 4.8: a kprobe that fired while another kprobe ran
		 * on its CPU (kp.nmissed), a return with no free instance. */
		if (k->is_return)
			atomic_add(k->krp.nmissed + (int)k->krp.kp.nmissed, &stp_skipped_count);
		else
			atomic_add((int)k->kp.nmissed, &stp_skipped_count);
		k->registered = false;
	}
	if (atomic_read(&stp_kprobe_int3_hits))
		stp_ctl_send("warning %d kprobe hit(s) on ftrace sites came through a breakpoint"
			     " the kernel's patching did not claim; resumed after the site",
			     atomic_xchg(&stp_kprobe_int3_hits, 0));
}

static const struct stp_probe_kind_ops stp_kind_kprobes = {
	.name = "kprobe",
	.register_probes = stp_kprobes_register,
	.unregister_probes = stp_kprobes_unregister, /* waits for running handlers */
};
