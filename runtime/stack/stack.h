/* Backtraces: the user stack (ustack.c, DWARF CFI through unwind/) and the
 * kernel stack (kstack.c, the kernel's own unwinder), walked at most once
 * per probe hit and kept in the per-CPU probe context, never on the kernel
 * stack (8 KB on i386). See docs/runtime.md, "Backtraces". */
#ifndef STP_STACK_H
#define STP_STACK_H

#include <linux/types.h>
#include <linux/kallsyms.h>
#include "unwind.h"

/* Frames a backtrace holds; a deeper stack is cut there and says so.
 * SystemTap's default is 20; 128 holds every stack of the accuracy suite
 * (an 80-deep recursion is 85-87 frames) for 1.2 KB per CPU. */
#ifndef MAXBACKTRACE
#define MAXBACKTRACE 128
#endif

/* Why a user walk ended, besides unwind/'s UW_END and UW_E* codes. */
#define STP_USTACK_CUT (-100)     /* MAXBACKTRACE frames */
#define STP_USTACK_NOMAP (-101)   /* a pc in no executable mapping */
#define STP_USTACK_NOTABLE (-102) /* a pc in an object without unwind data */

struct stp_ustack {
	bool have_regs;        /* the task has user registers here */
	bool is32;             /* a 32-bit task: addresses are 32 bits */
	int stop;              /* UW_END (reached the outermost frame) or why not */
	unsigned n;            /* frames in pc[] */
	u64 pc[MAXBACKTRACE];
	u8 exact[MAXBACKTRACE]; /* pc is an interrupted instruction, not a return address */
	struct uw_regs regs;   /* the walk's registers */
	bool ws_ready;         /* ws was initialised (once: see stp_ustack_walk) */
	struct uw_workspace ws; /* unwind/'s per-step state, off the kernel stack */
};

struct stp_kstack {
	bool cut;              /* MAXBACKTRACE frames and more */
	unsigned n;
	unsigned long pc[MAXBACKTRACE];
	char symbuf[KSYM_SYMBOL_LEN]; /* kallsyms' text for one address */
	char symdata[MAXSTRINGLEN];   /* one line of print_syms/print_usyms */
};

/* How an address is printed: SystemTap 4.8's symbol formats. */
enum stp_sym_form {
	STP_SYM_FULL,   /* " 0xADDR : SYM+0xOFF/0xSIZE [MODULE]\n" (print_*backtrace) */
	STP_SYM_BRIEF,  /* "SYM+0xOFF\n", or "0xADDR\n" */
	STP_SYM_SIMPLE, /* "SYM+0xOFF [BASENAME]\n" (sprint_*backtrace) */
	STP_SYM_HEX,    /* "0xADDR " (ubacktrace, backtrace) */
	STP_SYM_DATA,   /* "SYM+0xOFF/0xSIZE [MODULE]" (usymdata, symdata) */
	STP_SYM_NAME,   /* "SYM", or "0xADDR" (usymname) */
	/* The source line of an address, from the object's line table: */
	STP_SYM_FILELINE, /* "FILE:LINE", or "0xADDR" (usymfileline, symfileline) */
	STP_SYM_FILE,     /* "FILE", or "0xADDR" (usymfile, symfile) */
	STP_SYM_LINE,     /* "LINE" in decimal, or "0xADDR" (usymline, symline) */
};

struct stp_context;

#ifdef STP_FEATURE_USER
/* The current task's user stack, in `form`, to the probe's output
 * (str == NULL) or into the MAXSTRINGLEN string `str` as 4.8's sprint
 * functions give it. */
void stp_ustack_print(struct stp_context *c, char *str, enum stp_sym_form form);
/* Frame n (0 = where the task is) of the user stack, 0 past its end. */
u64 stp_ustack_pc(struct stp_context *c, unsigned n);
/* One user address of the current task, in `form`, into str. */
void stp_usym_sprint(struct stp_context *c, char *str, u64 addr, enum stp_sym_form form);

/* The same for the kernel stack and kernel addresses. */
void stp_kstack_print(struct stp_context *c, char *str, enum stp_sym_form form);
unsigned long stp_kstack_pc(struct stp_context *c, unsigned n);
void stp_ksym_sprint(struct stp_context *c, char *str, unsigned long addr, enum stp_sym_form form);

/* print_usyms/sprint_usyms (user) and print_syms/sprint_syms: the
 * addresses of the hex string `callers`, one per line, to the output
 * (str == NULL) or into str. */
void stp_syms_print(struct stp_context *c, char *str, const char *callers, bool user);
/* ucallers(n)/callers(n) into str: false when the stack has fewer than
 * n + 1 frames (n == -1: every frame, never false). */
bool stp_callers(struct stp_context *c, char *str, s64 n, bool user);
#endif

/* -v given to staprun (module parameter _stp_verbose). */
extern int stp_verbose;

#endif /* STP_STACK_H */
