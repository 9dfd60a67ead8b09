/* Perf event probes: one kernel perf event (perf_event_create_kernel_counter,
 * exported) per online CPU and probe, counting system-wide on that CPU;
 * its overflow, every `period` events (or `period` times a second),
 * runs the probe with the interrupted registers, user or kernel.
 * timer.profile is one of them: cpu-clock nanoseconds, since the 6.1
 * kernels export no profile-tick hook to modules (as SystemTap 4.8 does on
 * such kernels). The overflow handler runs in the event's interrupt (an
 * hrtimer for software clocks, the PMU's NMI for hardware counters, the
 * faulting or switching task for page faults and context switches).
 * Events bound to tasks (.process, .counter) are perf_task.c's. */

static void stp_perf_fire(struct perf_event *ev, struct perf_sample_data *data,
			  struct pt_regs *regs)
{
	struct stp_perf_probe *p = ev->overflow_handler_context;
	stp_run_event_probe_regs(p->probe, regs);
}

#ifdef STP_FEATURE_PERF_TASK
#include "perf_task.c"
#else
static inline int stp_perf_task_start(void) { return 0; }
static inline void stp_perf_task_stop(void) {}
#endif

static void stp_perf_unregister(void)
{
	struct stp_perf_probe *probes = stp_kind_table(PERF)->probes;
	unsigned i, cpu;

	stp_perf_task_stop();
	for (i = 0; i < stp_kind_table(PERF)->n; i++) {
		struct stp_perf_probe *p = &probes[i];
		if (!p->events)
			continue;
		/* release waits for a handler still running on the event's CPU */
		for (cpu = 0; cpu < nr_cpu_ids; cpu++)
			if (p->events[cpu])
				perf_event_release_kernel(p->events[cpu]);
		kfree(p->events);
		p->events = NULL;
	}
}

/* One event per online CPU and system-wide probe, then the task-bound
 * ones (perf_task.c); 0, or the first error. */
static int stp_perf_register(void)
{
	struct stp_perf_probe *probes = stp_kind_table(PERF)->probes;
	unsigned i, cpu;

	for (i = 0; i < stp_kind_table(PERF)->n; i++) {
		struct stp_perf_probe *p = &probes[i];
		struct perf_event_attr attr = {
			.type = p->type,
			.config = p->config,
			.size = sizeof(attr),
			.sample_period = p->period, /* sample_freq shares it */
			.freq = p->freq,
			.pinned = 1,
		};
		if (p->bound != STP_PERF_BOUND_NONE)
			continue;
		p->events = kcalloc(nr_cpu_ids, sizeof(*p->events), GFP_KERNEL);
		if (!p->events)
			return -ENOMEM;
		cpus_read_lock();
		for_each_online_cpu(cpu) {
			struct perf_event *ev =
				perf_event_create_kernel_counter(&attr, cpu, NULL, stp_perf_fire, p);
			if (IS_ERR(ev)) {
				cpus_read_unlock();
				stp_ctl_send("error probe %s (%s) registration failed: error %ld",
					     p->probe->pp, p->probe->loc, PTR_ERR(ev));
				return PTR_ERR(ev);
			}
			p->events[cpu] = ev;
		}
		cpus_read_unlock();
	}
	return stp_perf_task_start();
}

/* The events exist from registration on; their handlers run the probe only
 * once the session is RUNNING (stp_run_event_probe_regs). */
static const struct stp_probe_kind_ops stp_kind_perf = {
	.name = "perf",
	.register_probes = stp_perf_register,
	.unregister_probes = stp_perf_unregister,
};
