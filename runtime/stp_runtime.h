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

#include "stp_kernel.h"

#include "stp_features.h"
#include "regex_vm.h"
#include "task/vma_map.h"

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
#ifndef MAXNESTING
#define MAXNESTING 10
#endif
#ifndef MAXTRYLOCK
#define MAXTRYLOCK 1000
#endif
/* Default per-CPU transport ring size (staprun -s overrides at load). */
#ifndef STP_RING_SIZE
#define STP_RING_SIZE (256 * 1024)
#endif

#define STP_MAX(a, b) ((a) > (b) ? (a) : (b))

#include "stack/stack.h" /* needs MAXSTRINGLEN */

struct stp_probe;

/* Per-CPU state of the probe handler running on that CPU. */
struct stp_context {
	/* What every hit sets or resets (stp_run_probe_data), kept together
	 * at the start: a few merged stores to one cache line per hit, where
	 * spread over the struct's pages they were a fifth of an empty
	 * probe's cost (bench/run/context-variants). */
	int busy;                       /* reentrancy guard (this CPU's only) */
	bool kreturn;                   /* a kretprobe: the probed function is returning */
	unsigned char regparm;          /* *_arg()'s convention: regparm(N), asmlinkage() (stp_fetch.h) */
	unsigned char returnval_set;    /* set_returnval() ran (--compatible<=4.0): returnval() is
					 * returnval_override */
	/* A function ran `next` (STAP_NEXT): its caller runs the next
	 * overload. 0 except between such a return and the caller's check. */
	unsigned char next_overload;
	/* abort() ran: the handler is ending (last_error is set so that every
	 * check leaves), try/catch does not catch it, nothing is reported. */
	unsigned char aborted;
	/* This hit's backtraces (ustack, kstack below) were walked: they are
	 * walked on first use. */
	bool ustack_walked;
	bool kstack_walked;
	unsigned pbuf_len;              /* bytes in pbuf */
	unsigned frame_top;             /* bytes of frames in use */
	unsigned nesting;               /* function call depth (MAXNESTING) */
	int rx_nslots;                  /* the last =~'s captures (regex.c); 0: none yet */
	long actions;                   /* statements executed (MAXACTION) */
	const struct stp_probe *probe;  /* the probe being run */
	struct pt_regs *regs;           /* of the kprobe that fired, else NULL */
	unsigned long kprobe_addr;      /* a kprobe's or kretprobe's probed address, else 0 */
	void *entry_data;               /* kretprobe call's @entry values, a tracepoint's
					 * arguments (STP_TP_ARG), else NULL */
	const char *last_error;         /* set by a failing operation */
	const char *error_loc;          /* "file:line:col" of the failing operation */
	const char *stmt_loc;           /* "file:line:col" of the current statement */
	/* Script locals and temporaries live here, never on the kernel stack:
	 * the handler's frame first, then one frame per nested function call. */
	char *frames;                   /* stp_module.frames_size bytes */

	/* Set by the kinds that have them, read only under them. */
	const struct stp_uprobe *uprobe; /* a uprobe's: $argN, $return (set by uprobes.c) */
	unsigned long uprobe_pc;        /* with uprobe: the hit's address, or at a return the
					 * function's entry (stp_uprobe_bias) */
	s64 returnval_override;         /* with returnval_set */
	char sdt_parms[MAXSTRINGLEN];   /* an SDT marker's $$parms */

	/* Buffers. */
	char error_buf[MAXSTRINGLEN];   /* for formatted and script error messages */
	char conv_buf[3 * MAXSTRINGLEN + 8]; /* %m, %M, %p... being formatted */
	/* The last successful =~ of this handler, for matched() (regex.c). */
	int rx_caps[STP_RX_MAXSLOTS];
	char rx_subject[MAXSTRINGLEN];
	char pbuf[STP_PRINT_BUF_SIZE];  /* this handler's output, not yet committed */
	struct stp_ustack ustack;
	struct stp_kstack kstack;
};

typedef void (*stp_handler_fn)(struct stp_context *c);

struct stp_probe {
	const char *pp;       /* the probe point as resolved, for pp() and errors */
	const char *pn;       /* the script-level name (alias name), for pn() */
	const char *func;     /* the probed kernel function or "", for probefunc() */
	const char *loc;      /* "file:line:col" of the probe declaration */
	const char *type;     /* its mechanism as probe_type() names it: "kprobe"... */
	stp_handler_fn handler;
};

/* The event probe kinds (timers, kprobes, ...): their structs and the
 * list the session walks. */
#include "probes/kinds.h"

/* What generated code describes. Begin/end probes are ordered by priority. */
struct stp_module_desc {
	const struct stp_probe *const *begin_probes;
	unsigned n_begin;
	const struct stp_probe *const *end_probes;
	unsigned n_end;
	/* prints written-but-never-read globals after the end probes */
	const struct stp_probe *display_probe;
	const struct stp_probe *const *error_probes;
	unsigned n_error;
	/* Every other probe, by kind (probes/kinds.h). */
	struct stp_probe_table kinds[STP_NKINDS];
	/* The task finder and VMA tracker (runtime/task/) run in this
	 * session: user-address lookups (stp_vma_lookup) need them. */
	bool need_vma_tracker;
	/* Objects with unwind tables (-d PATH, --ldd); see task/vma_map.h. */
	struct stp_uobject *uobjects;
	unsigned n_uobjects;
	unsigned frames_size;        /* bytes of locals per CPU, see stp_context */
	int (*init_globals)(void);   /* may be NULL */
	void (*free_globals)(void);  /* may be NULL */
};

extern const struct stp_module_desc stp_module;

/* ---- statistics (`<<<`) ---- */

void stp_error(struct stp_context *c, const char *msg);

#ifdef STP_FEATURE_MODSECT
/* Where module `module`'s section `section` is loaded; 0 if it is not
 * (module_sections.c). For the static data of DWARF locations. */
unsigned long stp_module_section(const char *module, const char *section);
#endif

#ifdef STP_FEATURE_STATS
#include "stat.h"
#endif
#ifdef STP_FEATURE_MAPS
#include "map.h"
#endif

/* ---- for generated code ---- */

/* Appends formatted text to the handler's print buffer (kernel printf
 * conversions: the translator rewrites SystemTap formats into them). */
__printf(2, 3) void stp_printf(struct stp_context *c, const char *fmt, ...);
void stp_print_str(struct stp_context *c, const char *s);
/* sprintf(): formats into a MAXSTRINGLEN buffer and returns it. */
__printf(2, 3) char *stp_sprintf(char *buf, const char *fmt, ...);
/* Chunks of printf/sprintf (see format.c): `str` is the sprintf buffer,
 * appended to, or NULL for the probe's output. */
__printf(3, 4) void stp_out_printf(struct stp_context *c, char *str, const char *fmt, ...);
/* Load-time allocations sized by -D limits (MAXMAPENTRIES, MAXSTRINGLEN) or
 * staprun -s: a size that overflows saturates (array_size) and one that
 * does not fit fails quietly (__GFP_NOWARN: no allocation-failure splat in
 * the kernel log), so the load fails with -ENOMEM and a clear message,
 * never with a short buffer or a kernel warning. Zeroed. */
extern atomic_long_t stp_allocated_bytes; /* by stp_vzalloc_array(), for module_size() */
static inline void *stp_vzalloc_array(size_t n, size_t size)
{
	void *p = __vmalloc(array_size(n, size), GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN);
	if (p)
		atomic_long_add(array_size(n, size), &stp_allocated_bytes);
	return p;
}
/* A `*` width or precision from the script, as the kernel's vsnprintf
 * takes it: it keeps 23 bits of a width and 15 of a precision and WARNs
 * on a larger one, which a script must never make it do. Output is cut at
 * the print buffer long before, so the clamped values print the same. */
static inline int stp_fmt_width(s64 w)
{
	return (int)clamp_t(s64, w, -((1 << 23) - 1), (1 << 23) - 1);
}
static inline int stp_fmt_precision(s64 p)
{
	return p < 0 ? -1 : (int)min_t(s64, p, (1 << 15) - 1);
}
/* %p, %b, %m, %M, %#c; width/precision -1 when not given. */
void stp_out_special(struct stp_context *c, char *str, char conv, const char *flags, int width,
		     int precision, s64 value);
#ifdef STP_FEATURE_REGEX
/* s =~ "ERE": runs the translator-compiled program `p` on `s` with the
 * workspace `ws` (STP_RX_WORKSPACE_INTS ints); 1 on a match. */
s64 stp_regex_match(struct stp_context *c, const struct stp_rx_prog *p, const char *s, int *ws);
#endif
/* Module parameters for scalar globals (params.c). */
extern const struct kernel_param_ops stp_param_ops_s64, stp_param_ops_str;
/* exit(): ask staprun to end the session after this handler. */
void stp_exit(struct stp_context *c);
/* abort(): end the session as exit() does, and this handler at once. */
void stp_abort(struct stp_context *c);
/* The -c command's or -x process's pid, 0 without either: target(). */
long stp_target(void);
/* The process id of the staprun running the session: stp_pid(). */
long stp_staprun_pid(void);
/* The namespaces ns_pid() and friends number tasks in: staprun's. */
struct pid_namespace *stp_target_pid_ns(void);
struct user_namespace *stp_target_user_ns(void);
/* staprun's local time zone: seconds west of UTC, and its name. */
long stp_tz_offset(void);
const char *stp_tz_zone(void);
/* Whether the current task runs with staprun's effective uid: is_myproc(). */
bool stp_is_myproc(void);
/* Under --privilege=stapusr (the translator then defines
 * STP_PRIVILEGE_USR) user-space probes and process events fire only in
 * the processes of the user who ran staprun (effective uid), as in
 * SystemTap 4.8: an unprivileged script never sees another user's. */
static inline bool stp_privilege_allows_current(void)
{
#ifdef STP_PRIVILEGE_USR
	return stp_is_myproc();
#else
	return true;
#endif
}
/* Records a run-time error; the handler stops at its next check. */
void stp_error(struct stp_context *c, const char *msg);
/* system(): staprun runs `cmd` (one line) with /bin/sh in the background. */
void stp_system(const char *cmd);
/* stap --remote: this session's host index and URL (params.c). */
extern int stp_remote_id;
extern char stp_remote_uri[];
/* switch_file(): staprun closes its -o file and opens the next one. */
void stp_switch_file(struct stp_context *c);
/* warn(): staprun prints "WARNING: msg"; the handler goes on. */
void stp_warn(struct stp_context *c, const char *msg);

#ifdef STP_FEATURE_UPROBE
/* User probes (probes/uprobes.c): an SDT marker's $argN (1-based) and
 * $$parms (into buf, MAXSTRINGLEN), a user return probe's $return. */
s64 stp_sdt_arg(struct stp_context *c, unsigned n);
char *stp_sdt_parms(struct stp_context *c, char *buf);
s64 stp_uprobe_return(struct stp_context *c);
unsigned long stp_uprobe_bias(struct stp_context *c);
#endif
#ifdef STP_FEATURE_PROC
/* process.syscall[.return] (probes/process_events.c): $syscall, $argN
 * (1-6), $return. */
long stp_psys_nr(struct stp_context *c);
long stp_psys_arg(struct stp_context *c, unsigned n);
long stp_psys_return(struct stp_context *c);
#endif

/* ---- frames of locals ---- */

/* Reserves `size` zeroed bytes for a function's locals; NULL (and an
 * error) when calls nest deeper than MAXNESTING. */
static inline void *stp_push_frame(struct stp_context *c, unsigned size)
{
	void *f;
	size = ALIGN(size, 8);
	if (unlikely(c->nesting >= MAXNESTING)) {
		stp_error(c, "MAXNESTING exceeded");
		return NULL;
	}
	f = c->frames + c->frame_top;
	memset(f, 0, size);
	c->frame_top += size;
	c->nesting++;
	return f;
}

static inline void stp_pop_frame(struct stp_context *c, unsigned size)
{
	c->frame_top -= ALIGN(size, 8);
	c->nesting--;
}

/* ---- strings: every script string is a MAXSTRINGLEN buffer ---- */

/* A script string value into a MAXSTRINGLEN buffer. The values are
 * NUL-terminated within MAXSTRINGLEN and every destination the translator
 * gives has MAXSTRINGLEN bytes, so the buffers' sizes are hidden from
 * FORTIFY_SOURCE's strscpy(), which otherwise runs strnlen() over the
 * source first: two calls and two passes per copy (bench/run/context-variants). */
static inline char *stp_strcpy(char *dst, const char *src)
{
	char *d = dst;
	const char *s = src;
	OPTIMIZER_HIDE_VAR(d);
	OPTIMIZER_HIDE_VAR(s);
	if (d != s)
		strscpy(d, s, MAXSTRINGLEN);
	return dst;
}

static inline char *stp_strcat(char *dst, const char *src)
{
	strlcat(dst, src, MAXSTRINGLEN);
	return dst;
}

/* a . b into dst; the translator always gives a temporary that is
 * neither operand's storage. */
static inline char *stp_concat(char *dst, const char *a, const char *b)
{
	stp_strcpy(dst, a);
	return stp_strcat(dst, b);
}

/* ---- global variable locks ---- */

struct stp_lock_req {
	rwlock_t *lock;
	bool write;
};

/* Counts a skipped handler (busy CPU, locks not had); MAXSKIPPED ends the
 * session. */
void stp_count_skipped(void);

static __always_inline void stp_unlock_globals(const struct stp_lock_req *reqs, unsigned n)
{
	while (n--) {
		if (reqs[n].write)
			do_raw_write_unlock(reqs[n].lock);
		else
			do_raw_read_unlock(reqs[n].lock);
	}
}

/* Takes every lock of `reqs` (sorted by the translator, so all handlers
 * take them in one order) with a bounded number of tries. A handler that
 * cannot get its locks is skipped and counted, never left spinning.
 * Inline, and the raw lock operations: handlers run with interrupts off
 * (stp_run_probe_data), so the preemption count that read_trylock() and
 * friends keep is not needed, and a hit costs no call into the kernel
 * (bench/run: the locks were a fifth of a counter's cost per hit). */
static __always_inline bool stp_lock_globals(struct stp_context *c, const struct stp_lock_req *reqs,
				    unsigned n)
{
	unsigned i, tries;

	for (i = 0; i < n; i++) {
		for (tries = 0; tries < MAXTRYLOCK; tries++) {
			if (reqs[i].write ? do_raw_write_trylock(reqs[i].lock)
					  : do_raw_read_trylock(reqs[i].lock))
				break;
			cpu_relax();
		}
		if (unlikely(tries == MAXTRYLOCK)) {
			stp_unlock_globals(reqs, i);
			stp_count_skipped();
			return false;
		}
	}
	return true;
}

/* Counts one statement; false (and an error) once MAXACTION is exceeded. */
static inline bool stp_count_action(struct stp_context *c, const char *loc)
{
	c->stmt_loc = loc;
	if (unlikely(++c->actions > MAXACTION)) {
		c->error_loc = loc;
		stp_error(c, "MAXACTION exceeded");
		return false;
	}
	return true;
}

/* Script division: by zero is a run-time error, and S64_MIN / -1 (which
 * traps on x86) wraps as the other operations do. */
static inline s64 stp_div(struct stp_context *c, s64 a, s64 b, const char *loc)
{
	if (unlikely(b == 0)) {
		c->error_loc = loc;
		stp_error(c, "division by 0");
		return 0;
	}
	if (unlikely(b == -1))
		return (s64)(0 - (u64)a);
	return div64_s64(a, b); /* 32-bit kernels have no 64-bit '/' */
}

static inline s64 stp_mod(struct stp_context *c, s64 a, s64 b, const char *loc)
{
	if (unlikely(b == 0)) {
		c->error_loc = loc;
		stp_error(c, "division by 0");
		return 0;
	}
	if (unlikely(b == -1))
		return 0;
	return a - div64_s64(a, b) * b;
}

#include "probe_entry.h"

#endif /* STP_RUNTIME_H */
