/* perf.type(T).config(C)[.sample(N)|.hz(N)] (and the perf.sw.*, perf.hw.*
 * aliases of tapsets/perf.stp), and timer.profile[.tick],
 * timer.profile.freq.hz(N), which are cpu-clock perf events: a kernel
 * perf event on every CPU (STP_KIND_PERF, perf.c). Only runtime.c
 * includes <linux/perf_event.h>: with it in every generated module, gcc
 * 12 ran out of memory compiling some tapset code. So the translator
 * writes the attr's numbers. */
struct perf_event;
struct stp_perf_probe {
	const struct stp_probe *probe;
	u32 type;        /* perf_event_attr.type: PERF_TYPE_SOFTWARE is 1 */
	u64 config;      /* perf_event_attr.config */
	u64 period;      /* events between firings, or firings a second (freq) */
	bool freq;       /* .hz(N): `period` is a frequency */
	struct perf_event **events; /* [nr_cpu_ids], while the session runs */
};
