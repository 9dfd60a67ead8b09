/* Timer probes: one hrtimer per probe, armed at session start. The
 * callback runs in hard interrupt context, as SystemTap's timers do. */

static u64 stp_timer_period_ns(struct stp_timer_probe *t)
{
	u64 v = t->interval;
	if (t->randomize) {
		u64 span = 2 * t->randomize + 1, offset;
		div64_u64_rem(get_random_u64(), span, &offset); /* no 64-bit '%' on i386 */
		v = v - t->randomize + offset;
	}
	switch (t->unit) {
	case STP_TIMER_JIFFIES: return max_t(u64, v, 1) * (NSEC_PER_SEC / HZ);
	case STP_TIMER_HZ: return div64_u64(NSEC_PER_SEC, max_t(u64, v, 1));
	default: return max_t(u64, v, 1000); /* at least 1us between firings */
	}
}

static enum hrtimer_restart stp_timer_fn(struct hrtimer *h)
{
	struct stp_timer_probe *t = container_of(h, struct stp_timer_probe, timer);

	stp_run_event_probe(t->probe);
	hrtimer_forward_now(h, ns_to_ktime(stp_timer_period_ns(t)));
	return HRTIMER_RESTART;
}

static void stp_timers_start(void)
{
	struct stp_timer_probe *timers = stp_kind_table(TIMER)->probes;
	unsigned i;
	for (i = 0; i < stp_kind_table(TIMER)->n; i++) {
		struct stp_timer_probe *t = &timers[i];
		hrtimer_init(&t->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
		t->timer.function = stp_timer_fn;
		hrtimer_start(&t->timer, ns_to_ktime(stp_timer_period_ns(t)), HRTIMER_MODE_REL);
		t->armed = true;
	}
}

static void stp_timers_stop(void)
{
	struct stp_timer_probe *timers = stp_kind_table(TIMER)->probes;
	unsigned i;
	for (i = 0; i < stp_kind_table(TIMER)->n; i++) {
		struct stp_timer_probe *t = &timers[i];
		if (t->armed)
			hrtimer_cancel(&t->timer);
		t->armed = false;
	}
}

/* Timers fire on their own: armed once the begin probes ran. */
static const struct stp_probe_kind_ops stp_kind_timer = {
	.name = "timer",
	.start = stp_timers_start,
	.stop = stp_timers_stop,
};
