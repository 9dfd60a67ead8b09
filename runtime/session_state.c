/* Session state shared by all runtime parts. */

enum stp_session_state {
	STP_SESSION_LOADED,   /* module loaded, waiting for staprun's "start" */
	STP_SESSION_STARTING, /* probes being armed, begin probes running */
	STP_SESSION_RUNNING,  /* begin probes ran; probes armed */
	STP_SESSION_STOPPING, /* end probes running */
	STP_SESSION_STOPPED,  /* everything disarmed; output may remain */
};

static atomic_t stp_state = ATOMIC_INIT(STP_SESSION_LOADED);
static atomic_t stp_exit_requested = ATOMIC_INIT(0);
static atomic_t stp_error_count = ATOMIC_INIT(0);
static atomic_t stp_skipped_count = ATOMIC_INIT(0);
/* Set once errors exceed MAXERRORS: the session ends with the error probes
 * instead of the end probes, and no further begin or end probe runs. */
static atomic_t stp_session_failed = ATOMIC_INIT(0);
static long stp_target_pid;
/* The staprun that started the session (its "start" runs in staprun's own
 * task): stp_pid() and is_myproc(). */
static pid_t stp_staprun_tgid;
static kuid_t stp_staprun_euid;
/* staprun's local time zone ("tz GMTOFF NAME" before "start"): tz_gmtoff(),
 * tz_name(). Seconds west of UTC, as SystemTap 4.8's staprun passes it. */
static long stp_tz_gmtoff;
static char stp_tz_name[16];
/* staprun's pid and user namespaces, held from "start" to module exit: the
 * ns_*() functions number tasks and ids as that staprun sees them (4.8's
 * default when --target-namespaces is not given). */
static struct pid_namespace *stp_staprun_pid_ns;
static struct user_namespace *stp_staprun_user_ns;

/* Readers (staprun) sleep here; a timer wakes them, never probe context. */
static DECLARE_WAIT_QUEUE_HEAD(stp_wq);

static inline int stp_session_state(void)
{
	return atomic_read(&stp_state);
}

/* What an event probe's hit reads first, side by side (probe_entry.h):
 * whether event probes run, in one word (STP_EVENTS_RUN: the session is
 * running and no exit was asked for; the CLOSED bit never goes away),
 * and the per-CPU contexts. One load instead of three (the state, exit,
 * failure) was a tenth of an empty probe's cost
 * (bench/run/context-variants). */
atomic_t stp_events;
struct stp_context **stp_contexts; /* [nr_cpu_ids] */

static void stp_request_exit(void)
{
	atomic_set(&stp_exit_requested, 1);
	atomic_or(STP_EVENTS_CLOSED, &stp_events);
}
