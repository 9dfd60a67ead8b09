/* timer.{s,ms,us,ns,hz,jiffies}(N)[.randomize(R)]: what generated code
 * fills (STP_KIND_TIMER); timer.c arms them. */
enum stp_timer_unit { STP_TIMER_NS, STP_TIMER_JIFFIES, STP_TIMER_HZ };
struct stp_timer_probe {
	const struct stp_probe *probe;
	enum stp_timer_unit unit;
	u64 interval;   /* in `unit` (nanoseconds, jiffies, or a frequency) */
	u64 randomize;  /* +/- this much, same unit; 0 = none */
	struct hrtimer timer;
	bool armed;
};
