/* The event probe kinds: the one list the session and generated code share.
 *
 * Each kind is
 *   - runtime/probes/NAME.h: the struct its generated table holds, one per
 *     probe (first field `const struct stp_probe *probe`), included below;
 *   - runtime/probes/NAME.c: its operations, `stp_kind_NAME`, a
 *     `struct stp_probe_kind_ops`, included by kinds.c;
 *   - one line in STP_PROBE_KINDS below;
 *   - its family in translator/probes/, which emits the table with
 *     `ModuleWriter::emit_probe_table("ID", "struct TYPE", probes)`.
 * Generated code fills `stp_module.kinds[STP_KIND_ID]`; the kind reads its
 * probes back with stp_kind_table(ID).
 *
 * begin, end and error probes are not kinds: they are the session itself
 * (session.c runs them between the phases below). */
#ifdef STP_FEATURE_TIMER
#include "timer.h"
#endif
#ifdef STP_FEATURE_PERF
#include "perf.h"
#endif
#ifdef STP_FEATURE_KPROBE
#include "kprobes.h"
#endif
#ifdef STP_FEATURE_TRACEPOINT
#include "tracepoints.h"
#endif
#ifdef STP_FEATURE_UPROBE
#include "uprobes.h"
#endif
#ifdef STP_FEATURE_PROC
#include "process_events.h"
#endif
#ifdef STP_FEATURE_PROCFS
#include "procfs.h"
#endif
#ifdef STP_FEATURE_NETFILTER
#include "netfilter.h"
#endif
#ifdef STP_FEATURE_HWBKPT
#include "hwbkpt.h"
#endif

/* X(ID, name), in arming order: the session registers every kind in this
 * order (before the begin probes), starts them in this order (after the
 * begin probes), and stops and unregisters them in the reverse order. */
#define STP_PROBE_KINDS(X)       \
	X(KPROBE, kprobes)       \
	X(TRACEPOINT, tracepoints) \
	X(UPROBE, uprobes)       \
	X(PROC, proc_events)     \
	X(PERF, perf)            \
	X(TIMER, timer)          \
	X(PROCFS, procfs)        \
	X(NETFILTER, netfilter)  \
	X(HWBKPT, hwbkpt)

#define STP_KIND_ENUM(ID, name) STP_KIND_##ID,
enum stp_probe_kind_id { STP_PROBE_KINDS(STP_KIND_ENUM) STP_NKINDS };
#undef STP_KIND_ENUM

/* One kind's probes in this module (generated; empty when it has none). */
struct stp_probe_table {
	void *probes; /* struct TYPE[n] */
	unsigned n;
};

/* What the session does with a kind (each hook may be NULL). They run in
 * process context, under the session mutex, and may sleep. */
struct stp_probe_kind_ops {
	const char *name;
	/* Before the begin probes: hook every probe. 0, or a negative errno
	 * after reporting (stp_ctl_send "error ...") which probe failed; the
	 * session then ends. */
	int (*register_probes)(void);
	/* After the begin probes, the session RUNNING: probes that fire on
	 * their own (timers) begin here. */
	void (*start)(void);
	/* At the session's stop, before the end probes, in reverse order:
	 * `stop` undoes `start`, then `unregister_probes` undoes
	 * `register_probes` (also a partial one) and returns only once no
	 * handler of the kind runs any more. */
	void (*stop)(void);
	void (*unregister_probes)(void);
};

#define stp_kind_table(ID) (&stp_module.kinds[STP_KIND_##ID])
