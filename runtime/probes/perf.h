/* perf.type(T).config(C)[.sample(N)|.hz(N)] (and the perf.sw.*, perf.hw.*
 * aliases of tapsets/perf.stp), and timer.profile[.tick],
 * timer.profile.freq.hz(N), which are cpu-clock perf events: a kernel
 * perf event on every CPU (STP_KIND_PERF, perf.c). Only runtime.c
 * includes <linux/perf_event.h>: with it in every generated module, gcc
 * 12 ran out of memory compiling some tapset code. So the translator
 * writes the attr's numbers. */
struct perf_event;
/* Which tasks a probe's events count in (perf_task.c): none (one event
 * per CPU, system-wide), the threads of processes running `path`
 * (.process), those of the -c/-x target's processes (.counter alone). */
enum stp_perf_bound { STP_PERF_BOUND_NONE, STP_PERF_BOUND_PATH, STP_PERF_BOUND_TARGET };
struct stp_perf_probe {
	const struct stp_probe *probe;
	u32 type;        /* perf_event_attr.type: PERF_TYPE_SOFTWARE is 1 */
	u64 config;      /* perf_event_attr.config */
	u64 period;      /* events between firings, or firings a second (freq);
			    0: a counter, never fires */
	bool freq;       /* .hz(N): `period` is a frequency */
	struct perf_event **events; /* [nr_cpu_ids], while the session runs */
	/* task-bound probes only */
	enum stp_perf_bound bound;
	const char *path;      /* STP_PERF_BOUND_PATH: the program */
	bool counter;          /* .counter("NAME"): read with @perf */
	unsigned slot;         /* its event's index in a task's events */
	struct inode *inode;   /* path's, while the session runs */
};
#ifdef STP_FEATURE_PERF_TASK
/* @perf: the current thread's count of the counter in `slot` (0 when the
 * thread has none). Any context; lock-free, bounded (MAXPERFTASKS). */
s64 stp_perf_task_read(unsigned slot);
#endif
