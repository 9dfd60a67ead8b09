/* A byte ring for one CPU's output: one producer (the probe handlers of that
 * CPU, which run with interrupts off and a per-CPU reentrancy guard, so they
 * never race each other) and one consumer (the reader in process context,
 * serialised by a mutex). No locks: head is written only by the producer,
 * tail only by the consumer, each published with release/acquire.
 *
 * Each record is a header followed by its payload. The sequence number is
 * global across CPUs so the reader can merge the per-CPU rings back into the
 * order the records were committed. A record that does not fit is dropped
 * whole and counted: output is never torn.
 *
 * Pure logic, no kernel calls: unit-tested on the host. */
#ifndef STP_RING_H
#define STP_RING_H

#include "../stp_port.h"

struct stp_ring_hdr {
	u32 len;  /* payload bytes */
	u32 pad;
	u64 seq;
};

struct stp_ring {
	char *buf;
	u32 size;          /* a power of two */
	u32 head;          /* producer position (free-running) */
	u32 tail;          /* consumer position (free-running) */
	u64 dropped_bytes; /* payload bytes of dropped records */
	u64 dropped_records;
};

static inline void stp_ring_init(struct stp_ring *r, char *buf, u32 size)
{
	r->buf = buf;
	r->size = size;
	r->head = r->tail = 0;
	r->dropped_bytes = r->dropped_records = 0;
}

static inline void stp_ring_copy_in(struct stp_ring *r, u32 pos, const void *src, u32 n)
{
	u32 off = pos & (r->size - 1);
	u32 first = r->size - off < n ? r->size - off : n;
	memcpy(r->buf + off, src, first);
	if (n > first)
		memcpy(r->buf, (const char *)src + first, n - first);
}

static inline void stp_ring_copy_out(const struct stp_ring *r, u32 pos, void *dst, u32 n)
{
	u32 off = pos & (r->size - 1);
	u32 first = r->size - off < n ? r->size - off : n;
	memcpy(dst, r->buf + off, first);
	if (n > first)
		memcpy((char *)dst + first, r->buf, n - first);
}

/* Producer: append one record. Returns 0, or -1 if it was dropped. */
static inline int stp_ring_write(struct stp_ring *r, u64 seq, const void *data, u32 len)
{
	struct stp_ring_hdr h;
	u32 head = r->head;
	u32 tail = smp_load_acquire(&r->tail);
	u32 need = (u32)sizeof(h) + len;

	if (need > r->size - (head - tail)) {
		r->dropped_bytes += len;
		r->dropped_records++;
		return -1;
	}
	h.len = len;
	h.pad = 0;
	h.seq = seq;
	stp_ring_copy_in(r, head, &h, sizeof(h));
	stp_ring_copy_in(r, head + sizeof(h), data, len);
	smp_store_release(&r->head, head + need);
	return 0;
}

/* Consumer: look at the oldest record without removing it. */
static inline int stp_ring_peek(const struct stp_ring *r, struct stp_ring_hdr *h)
{
	u32 head = smp_load_acquire(&r->head);
	if (head == r->tail)
		return 0;
	stp_ring_copy_out(r, r->tail, h, sizeof(*h));
	return 1;
}

/* Consumer: drop the oldest record after its payload was copied out. */
static inline void stp_ring_consume(struct stp_ring *r, const struct stp_ring_hdr *h)
{
	smp_store_release(&r->tail, r->tail + (u32)sizeof(*h) + h->len);
}

/* Consumer: the payload of the record `h` that stp_ring_peek returned
 * starts here (it may wrap: copy it out with stp_ring_copy_out). */
static inline u32 stp_ring_payload_pos(const struct stp_ring *r)
{
	return r->tail + (u32)sizeof(struct stp_ring_hdr);
}

/* Consumer: of `n` rings, the one whose oldest record has the smallest
 * sequence number, or -1 when all are empty. */
static inline int stp_ring_pick(struct stp_ring *const *rings, int n, struct stp_ring_hdr *out)
{
	int i, best = -1;
	struct stp_ring_hdr h;
	for (i = 0; i < n; i++) {
		if (!rings[i] || !stp_ring_peek(rings[i], &h))
			continue;
		if (best < 0 || h.seq < out->seq) {
			best = i;
			*out = h;
		}
	}
	return best;
}

#endif /* STP_RING_H */
