/* kprobe.function("f")[.return], kernel.function("f") by symbol
 * (STP_KIND_KPROBE, kprobes.c). */
struct stp_kprobe {
	const struct stp_probe *probe;
	const char *symbol;  /* "f" or "module:f"; NULL: by address */
	unsigned long offset; /* from the symbol: a DWARF probe's address */
	unsigned long addr;  /* kprobe.statement(ADDR).absolute */
	bool is_return;
	bool optional;       /* a failed registration is not an error (`?`) */
	int maxactive;       /* .return: instances at once; 0 = kernel default */
	/* .return with @entry values: the probe that computes them at entry
	 * (the kretprobe's entry handler) and the bytes they take per call. */
	const struct stp_probe *entry;
	unsigned entry_data_size;
	struct kprobe kp;
	struct kretprobe krp;
	bool registered;
};
