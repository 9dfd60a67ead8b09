/* The control channel's queue of messages to staprun: one-line messages
 * ("error ...", "warning ...") appended by probes, read by staprun as a
 * byte stream (it joins lines across reads), plus two things that must
 * never be lost however full the queue is:
 *
 * - "exit": exit() or an error limit asked for the session to end. Given
 *   as a flag, delivered at the next line boundary.
 * - the session's final figures ("drops", "stats errors N skipped M"):
 *   set once when the session stops, held apart from the queue (which a
 *   flood of error messages may have filled) and delivered after it. The
 *   counts they carry are kept by the module, so a message that did not fit
 *   loses its text, never its count.
 *
 * A message that does not fit is counted in `lost`. No locks here: the
 * caller (control.c) holds the queue's lock. Pure logic, no kernel calls:
 * unit-tested on the host (ctl_queue_test.cpp). */
#ifndef STP_CTL_QUEUE_H
#define STP_CTL_QUEUE_H

#include "../stp_port.h"

#define STP_CTL_BUF_SIZE 8192
#define STP_CTL_FINAL_SIZE 256

struct stp_ctl_queue {
	char buf[STP_CTL_BUF_SIZE]; /* whole lines, but for a partly read first one */
	u32 len;
	u32 lost;                   /* messages that did not fit */
	u8 midline;                 /* the reader has part of buf's first line */
	u8 exit_delivered;
	char final[STP_CTL_FINAL_SIZE];
	u32 final_len;              /* 0: not set, or moved to buf */
};

/* Where the next message is formatted, and how many bytes it may take
 * (its newline included). */
static inline char *stp_ctlq_tail(struct stp_ctl_queue *q)
{
	return q->buf + q->len;
}

static inline u32 stp_ctlq_room(const struct stp_ctl_queue *q)
{
	return STP_CTL_BUF_SIZE - q->len;
}

/* Keeps the message of `n` bytes just formatted at the tail (vsnprintf's
 * result: the length it wanted) if it fit with its newline; otherwise
 * drops it and counts it lost. Returns whether it was kept. */
static inline int stp_ctlq_commit(struct stp_ctl_queue *q, int n)
{
	if (n < 0 || (u32)n + 1 >= stp_ctlq_room(q)) {
		q->lost++;
		return 0;
	}
	q->buf[q->len + n] = '\n';
	q->len += n + 1;
	return 1;
}

/* The final figures: `n` bytes of whole lines (cut at a line if longer
 * than the space). Replaces any earlier ones not yet delivered. */
static inline void stp_ctlq_set_final(struct stp_ctl_queue *q, const char *text, u32 n)
{
	while (n > STP_CTL_FINAL_SIZE)
		n--;
	while (n && text[n - 1] != '\n')
		n--;
	memcpy(q->final, text, n);
	q->final_len = n;
}

static inline int stp_ctlq_pending(const struct stp_ctl_queue *q, int exit_requested)
{
	return q->len != 0 || q->final_len != 0 || (exit_requested && !q->exit_delivered);
}

/* Moves up to `cap` bytes for the reader into `dst`: "exit" (at a line
 * boundary), then the queue, then, once the queue is empty, the final
 * figures. Returns the bytes given. */
static inline u32 stp_ctlq_take(struct stp_ctl_queue *q, char *dst, u32 cap, int exit_requested)
{
	u32 n = 0, m;

	if (exit_requested && !q->exit_delivered && !q->midline && cap >= 5) {
		memcpy(dst, "exit\n", 5);
		n = 5;
		q->exit_delivered = 1;
	}
	if (!q->len && q->final_len) { /* the queue is empty: the figures' turn */
		memcpy(q->buf, q->final, q->final_len);
		q->len = q->final_len;
		q->final_len = 0;
	}
	m = q->len < cap - n ? q->len : cap - n;
	if (m) {
		memcpy(dst + n, q->buf, m);
		memmove(q->buf, q->buf + m, q->len - m);
		q->len -= m;
		n += m;
		q->midline = dst[n - 1] != '\n';
	}
	return n;
}

#endif /* STP_CTL_QUEUE_H */
