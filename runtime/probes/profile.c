/* timer.profile, timer.profile.tick, timer.profile.freq.hz(N): a sampling
 * timer on every CPU. The 6.1 kernels have no profile-tick hook for
 * modules, so, like SystemTap 4.8 on such kernels, each CPU gets a
 * kernel perf event counting cpu-clock nanoseconds whose overflow fires
 * every `period_ns`. The overflow handler runs from that CPU's hrtimer
 * interrupt with the interrupted registers, user or kernel. */

static void stp_profile_fire(struct perf_event *ev, struct perf_sample_data *data,
			     struct pt_regs *regs)
{
	struct stp_profile_probe *p = ev->overflow_handler_context;
	stp_run_event_probe_regs(p->probe, regs);
}

static void stp_profiles_stop(void)
{
	struct stp_profile_probe *profiles = stp_kind_table(PROFILE)->probes;
	unsigned i, cpu;
	for (i = 0; i < stp_kind_table(PROFILE)->n; i++) {
		struct stp_profile_probe *p = &profiles[i];
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

/* One event per online CPU and probe; 0, or the first error. */
static int stp_profiles_start(void)
{
	struct stp_profile_probe *profiles = stp_kind_table(PROFILE)->probes;
	unsigned i, cpu;

	for (i = 0; i < stp_kind_table(PROFILE)->n; i++) {
		struct stp_profile_probe *p = &profiles[i];
		struct perf_event_attr attr = {
			.type = PERF_TYPE_SOFTWARE,
			.config = PERF_COUNT_SW_CPU_CLOCK,
			.size = sizeof(attr),
			.sample_period = p->period_ns,
			.pinned = 1,
		};
		p->events = kcalloc(nr_cpu_ids, sizeof(*p->events), GFP_KERNEL);
		if (!p->events)
			return -ENOMEM;
		cpus_read_lock();
		for_each_online_cpu(cpu) {
			struct perf_event *ev =
				perf_event_create_kernel_counter(&attr, cpu, NULL, stp_profile_fire, p);
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
	return 0;
}

/* The events exist from registration on; their handlers run the probe only
 * once the session is RUNNING (stp_run_event_probe_regs). */
static const struct stp_probe_kind_ops stp_kind_profile = {
	.name = "profile",
	.register_probes = stp_profiles_start,
	.unregister_probes = stp_profiles_stop,
};
