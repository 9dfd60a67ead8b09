/* Per-CPU probe contexts and the one way a probe handler is run. */

atomic_long_t stp_allocated_bytes = ATOMIC_LONG_INIT(0);

static int stp_contexts_alloc(void)
{
	unsigned cpu;
	stp_contexts = kcalloc(nr_cpu_ids, sizeof(*stp_contexts), GFP_KERNEL);
	if (!stp_contexts)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		/* both grow with MAXSTRINGLEN: no splat on a huge -D */
		stp_contexts[cpu] = stp_vzalloc_array(1, sizeof(struct stp_context));
		if (!stp_contexts[cpu])
			return -ENOMEM;
		stp_contexts[cpu]->frames = stp_vzalloc_array(1, max(stp_module.frames_size, 8u));
		if (!stp_contexts[cpu]->frames)
			return -ENOMEM;
	}
	return 0;
}

static void stp_contexts_free(void)
{
	unsigned cpu;
	if (!stp_contexts)
		return;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (stp_contexts[cpu])
			vfree(stp_contexts[cpu]->frames);
		vfree(stp_contexts[cpu]);
	}
	kfree(stp_contexts);
	stp_contexts = NULL;
}

void stp_flush(struct stp_context *c)
{
	if (c->pbuf_len) {
		stp_transport_write(c->pbuf, c->pbuf_len);
		c->pbuf_len = 0;
	}
}

static void stp_vprintf(struct stp_context *c, const char *fmt, va_list ap)
{
	va_list again;
	int n;
	unsigned room = STP_PRINT_BUF_SIZE - c->pbuf_len;

	/* An error while evaluating the arguments ends the statement: it
	 * prints nothing. */
	if (unlikely(c->last_error))
		return;
	va_copy(again, ap);
	n = vsnprintf(c->pbuf + c->pbuf_len, room, fmt, ap);
	if (n >= 0 && (unsigned)n < room) {
		c->pbuf_len += n;
	} else if (n >= 0) {
		/* Did not fit: commit what is buffered and format again into
		 * the empty buffer; text longer than the whole buffer is
		 * truncated. */
		stp_flush(c);
		n = vsnprintf(c->pbuf, STP_PRINT_BUF_SIZE, fmt, again);
		if (n > 0)
			c->pbuf_len = min_t(unsigned, n, STP_PRINT_BUF_SIZE - 1);
	}
	va_end(again);
}

void stp_printf(struct stp_context *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	stp_vprintf(c, fmt, ap);
	va_end(ap);
}

char *stp_sprintf(char *buf, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, MAXSTRINGLEN, fmt, ap);
	va_end(ap);
	return buf;
}

void stp_print_str(struct stp_context *c, const char *s)
{
	stp_printf(c, "%s", s);
}

long stp_target(void)
{
	return stp_target_pid;
}

long stp_staprun_pid(void)
{
	return stp_staprun_tgid;
}

struct pid_namespace *stp_target_pid_ns(void)
{
	return stp_staprun_pid_ns ? stp_staprun_pid_ns : &init_pid_ns;
}

struct user_namespace *stp_target_user_ns(void)
{
	return stp_staprun_user_ns ? stp_staprun_user_ns : &init_user_ns;
}

long stp_tz_offset(void)
{
	return stp_tz_gmtoff;
}

const char *stp_tz_zone(void)
{
	return stp_tz_name;
}

bool stp_is_myproc(void)
{
	return uid_eq(current_euid(), stp_staprun_euid);
}

void stp_exit(struct stp_context *c)
{
	if (unlikely(c->last_error))
		return;
	stp_request_exit();
}

void stp_abort(struct stp_context *c)
{
	stp_request_exit();
	c->aborted = 1;
	if (!c->last_error)
		c->last_error = "aborted";
}

void stp_error(struct stp_context *c, const char *msg)
{
	if (!c->last_error)
		c->last_error = msg;
}

void stp_system(const char *cmd)
{
	stp_ctl_send("system %s", cmd);
}

void stp_switch_file(struct stp_context *c)
{
	stp_flush(c); /* the handler's output so far: the old file's */
	stp_transport_switch();
}

void stp_warn(struct stp_context *c, const char *msg)
{
	(void)c;
	stp_ctl_send("warning %s", msg);
}

/* The first time the count passes MAXSKIPPED the session ends, with one
 * error message (SystemTap 4.8's text), not one per further skip. */
void stp_count_skipped(void)
{
	if (unlikely(atomic_inc_return(&stp_skipped_count) == MAXSKIPPED + 1)) {
		stp_ctl_send("error Skipped too many probes, check MAXSKIPPED or try again with "
			     "stap -t for more details.");
		stp_request_exit();
	}
}

noinline void stp_report_error(struct stp_context *c)
{
	int n = atomic_inc_return(&stp_error_count);
	const char *loc = c->error_loc ? c->error_loc : c->stmt_loc;
	if (loc && !*loc) /* error(): the message says it all */
		stp_ctl_send("error %s", c->last_error);
	else if (loc)
		stp_ctl_send("error %s near %s", c->last_error, loc);
	else
		stp_ctl_send("error %s in probe %s", c->last_error, c->probe->pp);
	if (n > MAXERRORS) {
		atomic_set(&stp_session_failed, 1);
		stp_request_exit(); /* closes the events' gate */
	}
}

static void stp_run_probe(const struct stp_probe *p)
{
	stp_run_probe_data(p, NULL, NULL, 0, false);
}

static void stp_run_event_probe_regs(const struct stp_probe *p, struct pt_regs *regs)
{
	stp_run_event_probe_data(p, regs, NULL, 0, false);
}

static void __maybe_unused stp_run_event_probe(const struct stp_probe *p)
{
	stp_run_event_probe_regs(p, NULL);
}
