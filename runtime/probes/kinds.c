/* The table of probe kinds (kinds.h) and the session's walks over it.
 * A kind the module has no probes of is not compiled in (stp_features.h):
 * its entry is NULL. */
#ifdef STP_FEATURE_TIMER
#include "timer.c"
#define STP_KIND_OPS_TIMER &stp_kind_timer
#else
#define STP_KIND_OPS_TIMER NULL
#endif
#ifdef STP_FEATURE_PERF
#include "perf.c"
#define STP_KIND_OPS_PERF &stp_kind_perf
#else
#define STP_KIND_OPS_PERF NULL
#endif
#ifdef STP_FEATURE_KPROBE
#include "kprobes.c"
#define STP_KIND_OPS_KPROBE &stp_kind_kprobes
#else
#define STP_KIND_OPS_KPROBE NULL
#endif
#ifdef STP_FEATURE_TRACEPOINT
#include "tracepoints.c"
#define STP_KIND_OPS_TRACEPOINT &stp_kind_tracepoints
#else
#define STP_KIND_OPS_TRACEPOINT NULL
#endif
#ifdef STP_FEATURE_UPROBE
#include "uprobes.c"
#define STP_KIND_OPS_UPROBE &stp_kind_uprobes
#else
#define STP_KIND_OPS_UPROBE NULL
#endif
#ifdef STP_FEATURE_PROC
#include "process_events.c"
#define STP_KIND_OPS_PROC &stp_kind_proc_events
#else
#define STP_KIND_OPS_PROC NULL
#endif
#ifdef STP_FEATURE_PROCFS
#include "procfs.c"
#define STP_KIND_OPS_PROCFS &stp_kind_procfs
#else
#define STP_KIND_OPS_PROCFS NULL
#endif
#ifdef STP_FEATURE_NETFILTER
#include "netfilter.c"
#define STP_KIND_OPS_NETFILTER &stp_kind_netfilter
#else
#define STP_KIND_OPS_NETFILTER NULL
#endif
#ifdef STP_FEATURE_HWBKPT
#include "hwbkpt.c"
#define STP_KIND_OPS_HWBKPT &stp_kind_hwbkpt
#else
#define STP_KIND_OPS_HWBKPT NULL
#endif

#define STP_KIND_OPS(ID, name) [STP_KIND_##ID] = STP_KIND_OPS_##ID,
static const struct stp_probe_kind_ops *const stp_probe_kinds[STP_NKINDS] = {
	STP_PROBE_KINDS(STP_KIND_OPS)
};
#undef STP_KIND_OPS

/* 0, or the first kind's error (later kinds are not registered). */
static int stp_kinds_register(void)
{
	unsigned i;
	for (i = 0; i < STP_NKINDS; i++) {
		const struct stp_probe_kind_ops *k = stp_probe_kinds[i];
		int rc = k && k->register_probes ? k->register_probes() : 0;
		if (rc)
			return rc;
	}
	return 0;
}

static void stp_kinds_start(void)
{
	unsigned i;
	for (i = 0; i < STP_NKINDS; i++)
		if (stp_probe_kinds[i] && stp_probe_kinds[i]->start)
			stp_probe_kinds[i]->start();
}

/* Stops, then unregisters, every kind, last first. Safe after a failed or
 * partial registration: each kind undoes only what it did. */
static void stp_kinds_unregister(void)
{
	unsigned i;
	for (i = STP_NKINDS; i-- > 0;)
		if (stp_probe_kinds[i] && stp_probe_kinds[i]->stop)
			stp_probe_kinds[i]->stop();
	for (i = STP_NKINDS; i-- > 0;)
		if (stp_probe_kinds[i] && stp_probe_kinds[i]->unregister_probes)
			stp_probe_kinds[i]->unregister_probes();
}
