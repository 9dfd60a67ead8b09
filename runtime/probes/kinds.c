/* The table of probe kinds (kinds.h) and the session's walks over it. */
#include "timer.c"
#include "perf.c"
#include "kprobes.c"
#include "tracepoints.c"
#include "uprobes.c"
#include "process_events.c"

#define STP_KIND_OPS(ID, name) [STP_KIND_##ID] = &stp_kind_##name,
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
		int rc = k->register_probes ? k->register_probes() : 0;
		if (rc)
			return rc;
	}
	return 0;
}

static void stp_kinds_start(void)
{
	unsigned i;
	for (i = 0; i < STP_NKINDS; i++)
		if (stp_probe_kinds[i]->start)
			stp_probe_kinds[i]->start();
}

/* Stops, then unregisters, every kind, last first. Safe after a failed or
 * partial registration: each kind undoes only what it did. */
static void stp_kinds_unregister(void)
{
	unsigned i;
	for (i = STP_NKINDS; i-- > 0;)
		if (stp_probe_kinds[i]->stop)
			stp_probe_kinds[i]->stop();
	for (i = STP_NKINDS; i-- > 0;)
		if (stp_probe_kinds[i]->unregister_probes)
			stp_probe_kinds[i]->unregister_probes();
}
