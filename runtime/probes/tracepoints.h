/* kernel.trace("SYSTEM:NAME"): a tracepoint of the kernel or a module (STP_KIND_TRACEPOINT,
 * tracepoints.c). `func` is the generated probe function, with the
 * tracepoint's prototype; it saves the arguments and calls
 * stp_tracepoint_fire(). */
struct tracepoint;
struct stp_tracepoint {
	const struct stp_probe *probe;
	const char *name;       /* the tracepoint's name */
	void *func;             /* the probe function hooked to it */
	bool optional;          /* from a wildcard or `?`: absent is no error */
	struct tracepoint *tp;  /* found by name at registration */
	struct module *mod;     /* the module that has it (pinned), or NULL */
	bool registered;
};

/* Argument I of the tracepoint whose probe runs, as saved by its probe
 * function (each widened to u64). */
#define STP_TP_ARG(c, i) (((const u64 *)(c)->entry_data)[i])
void stp_tracepoint_fire(struct stp_tracepoint *t, const u64 *args);
