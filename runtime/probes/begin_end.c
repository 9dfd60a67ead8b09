/* begin, end and error probes: run in order (the translator sorts them by
 * priority) from staprun's "start" and "stop" commands, in process
 * context. Once errors exceed MAXERRORS the session has failed: the rest of
 * the begin or end probes are skipped, and the error probes run instead of
 * the end probes (SystemTap's "final gasp"). As in SystemTap, exit() in a
 * begin probe also skips the begin probes after it (the end probes run). */

static void stp_run_probe_list(const struct stp_probe *const *list, unsigned n,
			       bool stop_on_failure, bool stop_on_exit)
{
	unsigned i;
	for (i = 0; i < n; i++) {
		if (stop_on_failure && atomic_read(&stp_session_failed))
			return;
		if (stop_on_exit && atomic_read(&stp_exit_requested))
			return;
		stp_run_probe(list[i]);
	}
}

static void stp_begin_probes_run(void)
{
	stp_run_probe_list(stp_module.begin_probes, stp_module.n_begin, true, true);
}

static void stp_end_probes_run(void)
{
	if (!atomic_read(&stp_session_failed)) {
		stp_run_probe_list(stp_module.end_probes, stp_module.n_end, true, false);
		if (stp_module.display_probe && !atomic_read(&stp_session_failed))
			stp_run_probe(stp_module.display_probe);
	}
	if (atomic_read(&stp_session_failed))
		stp_run_probe_list(stp_module.error_probes, stp_module.n_error, false, false);
}
