/* begin, end and error probes: run in order (the translator sorts them by
 * priority) from staprun's "start" and "stop" commands, in process
 * context. */

static void stp_run_probe_list(const struct stp_probe *const *list, unsigned n)
{
	unsigned i;
	for (i = 0; i < n; i++)
		stp_run_probe(list[i]);
}

static void stp_begin_probes_run(void)
{
	stp_run_probe_list(stp_module.begin_probes, stp_module.n_begin);
}

static void stp_end_probes_run(void)
{
	stp_run_probe_list(stp_module.end_probes, stp_module.n_end);
	if (stp_module.display_probe)
		stp_run_probe(stp_module.display_probe);
}
