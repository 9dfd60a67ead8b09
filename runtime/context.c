/* Per-CPU probe contexts and the one way a probe handler is run. */

static struct stp_context **stp_contexts; /* [nr_cpu_ids] */
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

static void stp_flush(struct stp_context *c)
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

static noinline void stp_report_error(struct stp_context *c)
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
		stp_request_exit();
	}
}

/* Runs `p` on this CPU. Interrupts stay off for the whole handler, so the
 * context cannot be shared; a probe that fires while this CPU is already in
 * a handler (an interrupt, an NMI) is skipped and counted, never nested.
 * `entry_data`: a kretprobe call's @entry values (or NULL).
 * `kprobe_addr`: a kprobe's probed address (its regs->ip is one past it
 * on x86), or a kretprobe's (then `kreturn`); 0 for other probes.
 * Returns whether the handler ran. Inline into each kind's handler, with
 * the rare paths out of line: a call and return less per hit. */
static __always_inline bool stp_run_probe_data(const struct stp_probe *p, struct pt_regs *regs,
					       void *entry_data, unsigned long kprobe_addr,
					       bool kreturn)
{
	unsigned long flags;
	struct stp_context *c;

	local_irq_save(flags);
	c = stp_contexts[smp_processor_id()];
	/* Only this CPU touches its context's flag, with interrupts off: what
	 * can come between the test and the set is an NMI (a perf or
	 * watchpoint probe), which runs to its end first. So a plain flag
	 * does what a locked cmpxchg did, as the kernel's own recursion
	 * guards (trace_recursion) do; the barriers keep the context's
	 * stores inside it. */
	if (unlikely(READ_ONCE(c->busy))) {
		stp_count_skipped();
		local_irq_restore(flags);
		return false;
	}
	WRITE_ONCE(c->busy, 1);
	barrier();
	c->probe = p;
	c->regs = regs;
	c->kprobe_addr = kprobe_addr;
	c->kreturn = kreturn;
	c->entry_data = entry_data;
	c->regparm = 0;
	c->returnval_set = 0;
	c->actions = 0;
	c->last_error = NULL;
	c->error_loc = NULL;
	c->stmt_loc = NULL;
	c->pbuf_len = 0;
	c->frame_top = 0;
	c->nesting = 0;
	c->next_overload = 0;
	c->aborted = 0;
	c->rx_nslots = 0;
	c->ustack.walked = false;
	c->kstack.walked = false;
	p->handler(c);
	if (c->pbuf_len)
		stp_flush(c);
	if (unlikely(c->last_error) && !c->aborted)
		stp_report_error(c);
	barrier();
	WRITE_ONCE(c->busy, 0);
	local_irq_restore(flags);
	return true;
}

static void stp_run_probe(const struct stp_probe *p)
{
	stp_run_probe_data(p, NULL, NULL, 0, false);
}

/* Event probes (timers, kprobes...) run only while the session runs:
 * not before the begin probes are done, not once exit() was called (as in
 * SystemTap, a timer that fires between exit() and the stop runs no more
 * rounds), not while the end probes run.
 * `regs` (or NULL) is what $return and friends read. */
static __always_inline bool stp_run_event_probe_data(const struct stp_probe *p, struct pt_regs *regs,
				     void *entry_data, unsigned long kprobe_addr, bool kreturn)
{
	if (likely(stp_session_state() == STP_SESSION_RUNNING &&
		   !atomic_read(&stp_exit_requested) &&
		   !atomic_read(&stp_session_failed)))
		return stp_run_probe_data(p, regs, entry_data, kprobe_addr, kreturn);
	return false;
}

static void stp_run_event_probe_regs(const struct stp_probe *p, struct pt_regs *regs)
{
	stp_run_event_probe_data(p, regs, NULL, 0, false);
}

static void __maybe_unused stp_run_event_probe(const struct stp_probe *p)
{
	stp_run_event_probe_regs(p, NULL);
}
