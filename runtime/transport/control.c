/* The control channel's kernel-to-staprun direction: a small text queue of
 * one-line messages ("error ...", "warning ...") and, delivered after them
 * and never lost, "exit" and the session's final figures ("drops ...",
 * "stats ..."; ctl_queue.h). Probe context only ever try-locks it, so a
 * handler that interrupts the reader (or an NMI) never spins; a message
 * that cannot be queued is counted and reported at the end instead. */

#include "ctl_queue.h"

static DEFINE_SPINLOCK(stp_ctl_lock);
static struct stp_ctl_queue stp_ctl_q;
/* Messages not queued because the lock was busy (the queue counts those
 * that did not fit). */
static atomic_t stp_ctl_busy_lost = ATOMIC_INIT(0);

static void stp_ctl_vsend(const char *fmt, va_list ap)
{
	unsigned long flags;
	int n;

	if (!spin_trylock_irqsave(&stp_ctl_lock, flags)) {
		atomic_inc(&stp_ctl_busy_lost);
		return;
	}
	n = vsnprintf(stp_ctlq_tail(&stp_ctl_q), stp_ctlq_room(&stp_ctl_q), fmt, ap);
	stp_ctlq_commit(&stp_ctl_q, n);
	spin_unlock_irqrestore(&stp_ctl_lock, flags);
}

static __printf(1, 2) void stp_ctl_send(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	stp_ctl_vsend(fmt, ap);
	va_end(ap);
}

/* Control messages lost so far (queue full or busy). */
static unsigned stp_ctl_lost(void)
{
	unsigned long flags;
	unsigned n;

	spin_lock_irqsave(&stp_ctl_lock, flags);
	n = stp_ctl_q.lost;
	spin_unlock_irqrestore(&stp_ctl_lock, flags);
	return n + atomic_read(&stp_ctl_busy_lost);
}

/* Process context, once the probes are disarmed: the final figures, whole
 * lines, delivered after every queued message. */
static void stp_ctl_set_final(const char *text, unsigned n)
{
	unsigned long flags;

	spin_lock_irqsave(&stp_ctl_lock, flags);
	stp_ctlq_set_final(&stp_ctl_q, text, n);
	spin_unlock_irqrestore(&stp_ctl_lock, flags);
}

static bool stp_ctl_pending(void)
{
	/* unlocked peek: a stale answer only delays a wake-up by a tick */
	return READ_ONCE(stp_ctl_q.len) != 0 || READ_ONCE(stp_ctl_q.final_len) != 0 ||
	       (atomic_read(&stp_exit_requested) && !READ_ONCE(stp_ctl_q.exit_delivered));
}

/* Process context: moves queued messages into `dst`; returns bytes. */
static size_t stp_ctl_take(char *dst, size_t cap)
{
	unsigned long flags;
	size_t n;

	spin_lock_irqsave(&stp_ctl_lock, flags);
	n = stp_ctlq_take(&stp_ctl_q, dst, cap, atomic_read(&stp_exit_requested));
	spin_unlock_irqrestore(&stp_ctl_lock, flags);
	return n;
}
