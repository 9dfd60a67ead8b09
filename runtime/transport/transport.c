/* The data direction of the transport: one ring per possible CPU, merged
 * back into commit order by the reader (debugfs.c). Sizes come from the
 * `_stp_bufsize` module parameter (staprun -s), rounded up to a power of
 * two. */

static unsigned int stp_bufsize = STP_RING_SIZE;
module_param_named(_stp_bufsize, stp_bufsize, uint, 0444);
MODULE_PARM_DESC(_stp_bufsize, "bytes of output buffer per CPU");

static struct stp_ring **stp_rings; /* [nr_cpu_ids] */
static atomic64_t stp_seq = ATOMIC64_INIT(0);

static int stp_transport_init(void)
{
	unsigned cpu;
	u32 size = roundup_pow_of_two(clamp(stp_bufsize, 4096u, 1u << 30));

	stp_rings = kcalloc(nr_cpu_ids, sizeof(*stp_rings), GFP_KERNEL);
	if (!stp_rings)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct stp_ring *r = kzalloc(sizeof(*r), GFP_KERNEL);
		char *buf = stp_vzalloc_array(1, size); /* -s is the user's: no splat */
		if (!r || !buf) {
			kfree(r);
			vfree(buf);
			return -ENOMEM;
		}
		stp_ring_init(r, buf, size);
		stp_rings[cpu] = r;
	}
	return 0;
}

static void stp_transport_free(void)
{
	unsigned cpu;
	if (!stp_rings)
		return;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (!stp_rings[cpu])
			continue;
		vfree(stp_rings[cpu]->buf);
		kfree(stp_rings[cpu]);
	}
	kfree(stp_rings);
	stp_rings = NULL;
}

/* Probe context (interrupts off): commit one record from this CPU. An
 * empty record is the switch marker below, so output never makes one. */
static void stp_transport_write(const char *data, unsigned len)
{
	struct stp_ring *r = stp_rings[smp_processor_id()];
	if (len)
		stp_ring_write(r, atomic64_inc_return(&stp_seq), data, len);
}

/* switch_file(): an empty record, in commit order with the output. The
 * reader stops before it, and a read that starts at it consumes it and
 * fails with ENOMSG: staprun opens its next -o file there, so what was
 * printed before the call and what after land in their own files. */
static void stp_transport_switch(void)
{
	struct stp_ring *r = stp_rings[smp_processor_id()];
	stp_ring_write(r, atomic64_inc_return(&stp_seq), "", 0);
}

static bool stp_transport_pending(void)
{
	struct stp_ring_hdr h;
	unsigned cpu;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (stp_rings[cpu] && stp_ring_peek(stp_rings[cpu], &h))
			return true;
	return false;
}

static void stp_transport_drops(u64 *bytes, u64 *records)
{
	unsigned cpu;
	*bytes = *records = 0;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (!stp_rings[cpu])
			continue;
		*bytes += READ_ONCE(stp_rings[cpu]->dropped_bytes);
		*records += READ_ONCE(stp_rings[cpu]->dropped_records);
	}
}
