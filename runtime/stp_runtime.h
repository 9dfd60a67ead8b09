/* The interface between generated probe code and the runtime.
 *
 * Generated C includes this header, defines its probe handlers, and
 * describes them in one `const struct stp_module_desc stp_module`. The
 * runtime (runtime.c and what it includes) owns module init/exit, the
 * per-CPU probe contexts, the output transport and the control channel
 * that staprun talks to.
 *
 * Limits are the -D macros SystemTap users know; each can be overridden
 * with `stap -D NAME=VALUE`. */
#ifndef STP_RUNTIME_H
#define STP_RUNTIME_H

#include <linux/types.h>
#include <linux/compiler.h>

#ifndef MAXACTION
#define MAXACTION 1000
#endif
#ifndef MAXERRORS
#define MAXERRORS 0
#endif
#ifndef MAXSKIPPED
#define MAXSKIPPED 100
#endif
#ifndef MAXSTRINGLEN
#define MAXSTRINGLEN 512
#endif
/* Bytes a probe handler can print before its output is committed early. */
#ifndef STP_PRINT_BUF_SIZE
#define STP_PRINT_BUF_SIZE 8192
#endif
/* Default per-CPU transport ring size (staprun -s overrides at load). */
#ifndef STP_RING_SIZE
#define STP_RING_SIZE (256 * 1024)
#endif

struct stp_probe;

/* Per-CPU state of the probe handler running on that CPU. */
struct stp_context {
	atomic_t busy;                  /* reentrancy guard */
	const struct stp_probe *probe;  /* the probe being run */
	long actions;                   /* statements executed (MAXACTION) */
	const char *last_error;         /* set by a failing operation */
	const char *error_loc;          /* "file:line:col" of the failing statement */
	char error_buf[128];            /* for formatted error messages */
	unsigned pbuf_len;
	char pbuf[STP_PRINT_BUF_SIZE];  /* this handler's output, not yet committed */
};

typedef void (*stp_handler_fn)(struct stp_context *c);

struct stp_probe {
	const char *pp;       /* the probe point as written, for pp() and errors */
	const char *loc;      /* "file:line:col" of the probe declaration */
	stp_handler_fn handler;
};

/* What generated code describes. Begin/end probes are ordered by priority. */
struct stp_module_desc {
	const struct stp_probe *const *begin_probes;
	unsigned n_begin;
	const struct stp_probe *const *end_probes;
	unsigned n_end;
	const struct stp_probe *const *error_probes;
	unsigned n_error;
	int (*init_globals)(void);   /* may be NULL */
	void (*free_globals)(void);  /* may be NULL */
};

extern const struct stp_module_desc stp_module;

/* ---- for generated code ---- */

/* Appends formatted text to the handler's print buffer (kernel printf
 * conversions: the translator rewrites SystemTap formats into them). */
__printf(2, 3) void stp_printf(struct stp_context *c, const char *fmt, ...);
void stp_print_str(struct stp_context *c, const char *s);
/* exit(): ask staprun to end the session after this handler. */
void stp_exit(struct stp_context *c);
/* Records a run-time error; the handler stops at its next check. */
void stp_error(struct stp_context *c, const char *msg);

/* Counts one statement; false (and an error) once MAXACTION is exceeded. */
static inline bool stp_count_action(struct stp_context *c, const char *loc)
{
	if (unlikely(++c->actions > MAXACTION)) {
		c->error_loc = loc;
		stp_error(c, "MAXACTION exceeded");
		return false;
	}
	return true;
}

#endif /* STP_RUNTIME_H */
