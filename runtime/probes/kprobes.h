/* kprobe.function("f")[.return], kernel.function("f") by symbol
 * (STP_KIND_KPROBE, kprobes.c). */
/* .callee("F"): a call the probed function must have been called from,
 * named by its return address: `offset` into `module`'s `section`, or
 * for vmlinux (module NULL) from _printk (which moves with KASLR).
 * `level` frames up from the probe (0: the immediate caller);
 * `frame_size` is how far above this return address's slot the caller's
 * own one is (-1: unknown, deeper levels are not checked). */
struct stp_callsite {
	const char *module;
	const char *section;
	unsigned long offset;
	unsigned level;
	long frame_size;
};

struct stp_kprobe {
	const struct stp_probe *probe;
	const char *symbol;  /* "f" or "module:f"; NULL: by address */
	unsigned long offset; /* from the symbol: a DWARF probe's address */
	unsigned long addr;  /* kprobe.statement(ADDR).absolute, or from _printk */
	/* At addr from _printk (KASLR moves the kernel as a whole), not by
	 * name: one copy of `symbol`, a name several kernel functions share,
	 * which by name would reach only the copy the kernel finds first. */
	bool from_printk;
	bool is_return;
	bool optional;       /* a failed registration is not an error (`?`) */
	int maxactive;       /* .return: instances at once; 0 = kernel default */
	/* .return with @entry values: the probe that computes them at entry
	 * (the kretprobe's entry handler) and the bytes they take per call. */
	const struct stp_probe *entry;
	unsigned entry_data_size;
	/* .callee: fire only when called from these (all levels); none:
	 * from anywhere. */
	const struct stp_callsite *callsites;
	unsigned n_callsites;
	/* The kernel callbacks generated for this probe's handler (kprobe_entry.h:
	 * its call direct); NULL: the runtime's shared ones. */
	int (*pre_handler)(struct kprobe *kp, struct pt_regs *regs);
	int (*ret_handler)(struct kretprobe_instance *ri, struct pt_regs *regs);
	struct kprobe kp;
	struct kretprobe krp;
	bool registered;
};
