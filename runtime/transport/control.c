/* The control channel's kernel-to-staprun direction: a small text queue of
 * one-line messages ("error ...", "warning ...", "drops ...", "stats ...").
 * Probe context only ever try-locks it, so a handler that interrupts the
 * reader (or an NMI) never spins; a message that cannot be queued is
 * counted and reported at the end instead. */

#define STP_CTL_BUF_SIZE 8192

static DEFINE_SPINLOCK(stp_ctl_lock);
static char stp_ctl_buf[STP_CTL_BUF_SIZE];
static unsigned stp_ctl_len;
static atomic_t stp_ctl_lost = ATOMIC_INIT(0);
static int stp_exit_delivered;

static void stp_ctl_vsend(const char *fmt, va_list ap)
{
	unsigned long flags;
	int n;

	if (!spin_trylock_irqsave(&stp_ctl_lock, flags)) {
		atomic_inc(&stp_ctl_lost);
		return;
	}
	n = vsnprintf(stp_ctl_buf + stp_ctl_len, STP_CTL_BUF_SIZE - stp_ctl_len, fmt, ap);
	if (n < 0 || stp_ctl_len + n + 1 >= STP_CTL_BUF_SIZE) {
		stp_ctl_buf[stp_ctl_len] = '\0'; /* discard the partial line */
		atomic_inc(&stp_ctl_lost);
	} else {
		stp_ctl_len += n;
		stp_ctl_buf[stp_ctl_len++] = '\n';
	}
	spin_unlock_irqrestore(&stp_ctl_lock, flags);
}

static __printf(1, 2) void stp_ctl_send(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	stp_ctl_vsend(fmt, ap);
	va_end(ap);
}

static bool stp_ctl_pending(void)
{
	return READ_ONCE(stp_ctl_len) != 0 ||
	       (atomic_read(&stp_exit_requested) && !stp_exit_delivered);
}

/* Process context: moves queued messages into `dst`; returns bytes. */
static size_t stp_ctl_take(char *dst, size_t cap)
{
	unsigned long flags;
	size_t n = 0;

	spin_lock_irqsave(&stp_ctl_lock, flags);
	if (atomic_read(&stp_exit_requested) && !stp_exit_delivered && cap >= 5) {
		memcpy(dst, "exit\n", 5);
		n = 5;
		stp_exit_delivered = 1;
	}
	if (stp_ctl_len && stp_ctl_len <= cap - n) {
		memcpy(dst + n, stp_ctl_buf, stp_ctl_len);
		n += stp_ctl_len;
		stp_ctl_len = 0;
	}
	spin_unlock_irqrestore(&stp_ctl_lock, flags);
	return n;
}
