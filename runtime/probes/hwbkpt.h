/* kernel.data(ADDRESS|"SYMBOL")[.length(N)].write|.rw: a hardware
 * watchpoint on every CPU (register_wide_hw_breakpoint, hwbkpt.c) that
 * runs the probe after each matching access. Only hwbkpt.c includes
 * <linux/hw_breakpoint.h>, so the translator writes the kernel's numbers
 * for the length and the kind of access (checked there). */
struct perf_event;
struct stp_hwbkpt_probe {
	const struct stp_probe *probe;
	unsigned long addr;   /* ADDRESS, or the symbol's offset from _printk */
	bool from_printk;     /* addr is an offset from _printk (a symbol) */
	u8 len;               /* HW_BREAKPOINT_LEN_1, 2, 4 or 8 */
	u8 type;              /* HW_BREAKPOINT_W or HW_BREAKPOINT_RW */
	struct perf_event *__percpu *events; /* while registered */
};
