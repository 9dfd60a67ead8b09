/* The session's life: module init, "start" (begin probes, arm the rest),
 * "stop" (disarm, end probes, final statistics), module exit. */

static DEFINE_MUTEX(stp_session_mutex);

static void stp_session_start(long target_pid)
{
	mutex_lock(&stp_session_mutex);
	stp_target_pid = target_pid;
	stp_staprun_tgid = task_tgid_nr(current);
	stp_staprun_euid = current_euid();
	if (!stp_staprun_pid_ns) {
		stp_staprun_pid_ns = get_pid_ns(task_active_pid_ns(current));
		stp_staprun_user_ns = get_user_ns(current_user_ns());
	}
	atomic_set(&stp_state, STP_SESSION_STARTING);
	/* Begin probes run first; event probes are armed before them but only
	 * run once the state says RUNNING. */
	/* the task finder first: the -c command is tracked from its exec on */
	if (stp_tf_start() || stp_kinds_register()) {
		stp_request_exit();
		atomic_inc(&stp_error_count);
	}
	stp_begin_probes_run();
	atomic_set(&stp_state, STP_SESSION_RUNNING);
	atomic_or(STP_EVENTS_RUN, &stp_events);
	stp_kinds_start();
	mutex_unlock(&stp_session_mutex);
}

/* The session's figures, counted by the module all along and sent once
 * apart from the message queue (stp_ctl_set_final), so that they reach
 * staprun exactly however many messages a flood of errors lost. */
static void stp_session_final_figures(void)
{
	char text[STP_CTL_FINAL_SIZE];
	unsigned n = 0, lost = stp_ctl_lost();
	int errors = atomic_read(&stp_error_count), skipped = atomic_read(&stp_skipped_count);
	u64 bytes, records;

	stp_transport_drops(&bytes, &records);
	if (records)
		n += scnprintf(text + n, sizeof(text) - n, "drops %llu %llu\n", bytes, records);
	if (lost)
		n += scnprintf(text + n, sizeof(text) - n,
			       "warning %u error and warning messages were lost: the control "
			       "channel was full\n", lost);
	if (errors || skipped)
		n += scnprintf(text + n, sizeof(text) - n, "stats errors %d skipped %d\n", errors,
			       skipped);
	stp_ctl_set_final(text, n);
}

static void stp_session_stop(void)
{
	mutex_lock(&stp_session_mutex);
	if (stp_session_state() != STP_SESSION_RUNNING) {
		mutex_unlock(&stp_session_mutex);
		return;
	}
	atomic_set(&stp_state, STP_SESSION_STOPPING);
	atomic_or(STP_EVENTS_CLOSED, &stp_events);
	stp_kinds_unregister(); /* waits for handlers still running */
	stp_tf_stop(); /* the VMA map stays readable for the end probes */
	stp_end_probes_run();
	stp_session_final_figures();
	atomic_set(&stp_state, STP_SESSION_STOPPED);
	mutex_unlock(&stp_session_mutex);
	wake_up_interruptible(&stp_wq);
}

/* "tz GMTOFF NAME": staprun's local time zone, sent before "start". */
static int stp_set_timezone(char *arg)
{
	char *name = strchr(arg, ' ');
	long off;

	if (!name)
		return -EINVAL;
	*name++ = '\0';
	if (kstrtol(arg, 10, &off))
		return -EINVAL;
	stp_tz_gmtoff = off;
	strscpy(stp_tz_name, strim(name), sizeof(stp_tz_name));
	return 0;
}

static void stp_cleanup(void)
{
	if (stp_staprun_pid_ns)
		put_pid_ns(stp_staprun_pid_ns);
	if (stp_staprun_user_ns)
		put_user_ns(stp_staprun_user_ns);
	stp_debugfs_exit();
	stp_vma_free_all();
	if (stp_module.free_globals)
		stp_module.free_globals();
	stp_transport_free();
	stp_contexts_free();
}

static int __init stp_module_init(void)
{
	int rc = stp_contexts_alloc();
	if (!rc)
		rc = stp_transport_init();
	if (!rc && stp_module.init_globals)
		rc = stp_module.init_globals();
	if (!rc)
		rc = stp_debugfs_init();
	if (rc)
		stp_cleanup();
	return rc;
}

static void __exit stp_module_exit(void)
{
	stp_session_stop(); /* unloaded without staprun's "stop": still run end probes */
	stp_cleanup();
}

module_init(stp_module_init);
module_exit(stp_module_exit);
