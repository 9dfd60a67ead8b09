/* Hardware watchpoints (hwbkpt.h): one wide breakpoint per probe, a perf
 * event on each CPU. x86's debug registers report a data access after
 * the instruction that made it: the probe sees the registers of the next
 * one. There are four of them per CPU, shared with ptrace and the kernel
 * debugger: registering a fifth fails with -ENOSPC, reported as the
 * probe's registration error. */
#include <linux/hw_breakpoint.h>

static void stp_hwbkpt_fire(struct perf_event *bp, struct perf_sample_data *data,
			    struct pt_regs *regs)
{
	struct stp_hwbkpt_probe *p = bp->overflow_handler_context;
	stp_run_event_probe_regs(p->probe, regs);
}

static void stp_hwbkpt_unregister(void)
{
	struct stp_hwbkpt_probe *probes = stp_kind_table(HWBKPT)->probes;
	unsigned i;
	for (i = 0; i < stp_kind_table(HWBKPT)->n; i++) {
		if (!probes[i].events)
			continue;
		unregister_wide_hw_breakpoint(probes[i].events);
		probes[i].events = NULL;
	}
}

static int stp_hwbkpt_register(void)
{
	struct stp_hwbkpt_probe *probes = stp_kind_table(HWBKPT)->probes;
	unsigned i;

	BUILD_BUG_ON(HW_BREAKPOINT_W != 2 || HW_BREAKPOINT_RW != 3);
	BUILD_BUG_ON(HW_BREAKPOINT_LEN_1 != 1 || HW_BREAKPOINT_LEN_2 != 2 ||
		     HW_BREAKPOINT_LEN_4 != 4 || HW_BREAKPOINT_LEN_8 != 8);
	for (i = 0; i < stp_kind_table(HWBKPT)->n; i++) {
		struct stp_hwbkpt_probe *p = &probes[i];
		struct perf_event_attr attr;
		struct perf_event *__percpu *events;

		hw_breakpoint_init(&attr);
		attr.bp_addr = p->from_printk ? (unsigned long)&_printk + p->addr : p->addr;
		attr.bp_len = p->len;
		attr.bp_type = p->type;
		events = register_wide_hw_breakpoint(&attr, stp_hwbkpt_fire, p);
		if (IS_ERR((void __force *)events)) {
			long err = PTR_ERR((void __force *)events);
			stp_ctl_send("error probe %s (%s) registration failed: %s (error %ld)",
				     p->probe->pp, p->probe->loc,
				     err == -ENOSPC ? "no free debug register" :
				     err == -EINVAL ? "the address is not aligned to the length, or not the kernel's" :
				     "the kernel refused the watchpoint", err);
			return err;
		}
		p->events = events;
	}
	return 0;
}

/* The watchpoints exist from registration on; their handlers run the probe
 * only once the session is RUNNING (stp_run_event_probe_regs). */
static const struct stp_probe_kind_ops stp_kind_hwbkpt = {
	.name = "hwbkpt",
	.register_probes = stp_hwbkpt_register,
	.unregister_probes = stp_hwbkpt_unregister,
};
