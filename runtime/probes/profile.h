/* timer.profile[.tick], timer.profile.freq.hz(N): every CPU, every period
 * (STP_KIND_PROFILE, profile.c). Only runtime.c includes
 * <linux/perf_event.h>: with it in every generated module, gcc 12 ran out
 * of memory compiling some tapset code. */
struct perf_event;
struct stp_profile_probe {
	const struct stp_probe *probe;
	u64 period_ns;
	struct perf_event **events; /* [nr_cpu_ids], while the session runs */
};
