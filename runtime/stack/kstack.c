/* The kernel stack at a probe, for print_backtrace() and friends: the
 * kernel's own unwinder (ORC on x86_64, frame pointers on i686; both
 * export __unwind_start and unwind_next_frame), symbols from kallsyms
 * through %pS/%pB. Kept in the per-CPU probe context, walked at most once
 * per probe hit. See docs/runtime.md, "Backtraces". */

#include <asm/unwind.h>
#include <linux/kallsyms.h>

/* Frames the walk may visit beyond MAXBACKTRACE (the runtime's own leading
 * frames, skipped when the probe has no registers). */
#define STP_KSTACK_SKIP_MAX 32

static struct stp_kstack *stp_kstack_walk(struct stp_context *c)
{
	struct stp_kstack *k = &c->kstack;
	struct pt_regs *regs = c->regs;
	struct unwind_state state;
	unsigned visited = 0;
	bool leading = true;

	if (c->kstack_walked)
		return k;
	c->kstack_walked = true;
	k->n = 0;
	k->cut = false;
	/* a probe that interrupted user space has no kernel stack */
	if (regs && user_mode(regs))
		return k;
	/* frame 0: the probed instruction (a kprobe's regs->ip is one past
	 * its first byte), or where timer.profile interrupted the kernel */
	if (regs)
		k->pc[k->n++] = c->kprobe_addr && !c->kreturn ? c->kprobe_addr
							       : instruction_pointer(regs);
	for (unwind_start(&state, current, regs, NULL); !unwind_done(&state);
	     unwind_next_frame(&state)) {
		unsigned long addr = unwind_get_return_address(&state);

		if (!addr || ++visited > MAXBACKTRACE + STP_KSTACK_SKIP_MAX)
			break;
		if (regs && leading && addr == instruction_pointer(regs)) {
			leading = false; /* the interrupted instruction again */
			continue;
		}
		/* without registers the walk starts in this module: show where
		 * the probe was called from, not the runtime */
		if (!regs && leading && within_module(addr, THIS_MODULE))
			continue;
		leading = false;
		if (k->n == MAXBACKTRACE) {
			k->cut = true;
			break;
		}
		k->pc[k->n++] = addr;
	}
	return k;
}

unsigned long stp_kstack_pc(struct stp_context *c, unsigned n)
{
	struct stp_kstack *k = stp_kstack_walk(c);
	return n < k->n ? k->pc[n] : 0;
}

/* Splits kallsyms' "name+0xoff/0xsize [module]" (or "0xaddr") into s;
 * `text` is modified. */
static void stp_ksym_parse(struct stp_sym *s, unsigned long addr, char *text)
{
	char *plus, *slash, *mod;

	memset(s, 0, sizeof(*s));
	s->addr = addr;
	if (strncmp(text, "0x", 2) == 0)
		return; /* no symbol */
	plus = strrchr(text, '+');
	slash = plus ? strchr(plus, '/') : NULL;
	if (!plus || !slash)
		return;
	mod = strchr(slash, '[');
	*plus = '\0';
	*slash = '\0';
	if (kstrtoull(plus + 1, 16, &s->off) != 0)
		return;
	if (mod) {
		char *end = strpbrk(mod + 1, " ]");
		if (end)
			*end = '\0';
		s->module = mod + 1;
	} else {
		s->module = "kernel";
	}
	{
		char *sz = slash + 1, *sp = strchr(sz, ' ');
		if (sp)
			*sp = '\0';
		if (kstrtoull(sz, 16, &s->size) != 0)
			return;
	}
	s->name = text;
	s->has_sym = s->has_mod = true;
}

/* `ret`: addr is a return address (look its symbol up at addr - 1). */
static void stp_ksym_lookup(struct stp_sym *s, char *buf, size_t len, unsigned long addr, bool ret)
{
	snprintf(buf, len, ret ? "%pB" : "%pS", (void *)addr);
	stp_ksym_parse(s, addr, buf);
}

void stp_kstack_print(struct stp_context *c, char *str, enum stp_sym_form form)
{
	struct stp_sink o = { c, str, 0, 0 };
	struct stp_kstack *k;
	struct stp_sym s;
	unsigned i;

	if (str)
		str[0] = '\0';
	k = stp_kstack_walk(c);
	/* at a kretprobe 4.8's full form first says which function returns */
	if (c->kreturn && c->kprobe_addr && form == STP_SYM_FULL && k->n) {
		stp_sink_printf(&o, "Returning from: ");
		stp_ksym_lookup(&s, k->symbuf, sizeof(k->symbuf), c->kprobe_addr, false);
		stp_sym_emit(&o, &s, form);
		stp_sink_printf(&o, "Returning to  : ");
	}
	for (i = 0; i < k->n; i++) {
		if (form == STP_SYM_HEX) {
			s.addr = k->pc[i];
		} else {
			/* frame 0 of a probe with registers is the probed
			 * instruction (a kretprobe's: where the function
			 * returns to); the others are return addresses */
			stp_ksym_lookup(&s, k->symbuf, sizeof(k->symbuf), k->pc[i],
					i > 0 || !c->regs || c->kreturn);
		}
		stp_sym_emit(&o, &s, form);
	}
	if (k->cut && !str && form != STP_SYM_HEX)
		stp_sink_printf(&o, form == STP_SYM_FULL ? " ...\n" : "...\n");
	stp_sink_finish(&o);
}

void stp_ksym_sprint(struct stp_context *c, char *str, unsigned long addr, enum stp_sym_form form)
{
	struct stp_sink o = { c, str, 0, 0 };
	struct stp_sym s;

	str[0] = '\0';
	stp_ksym_lookup(&s, c->kstack.symbuf, sizeof(c->kstack.symbuf), addr, false);
	stp_sym_emit(&o, &s, form);
}

/* print_usyms/print_syms (str == NULL) and sprint_usyms/sprint_syms: one
 * " TOKEN : SYMDATA\n" line per space-separated hex address of `callers`;
 * the string form ends before a line that would not fit, as 4.8's. */
void stp_syms_print(struct stp_context *c, char *str, const char *callers, bool user)
{
	char tok[24];
	char *data = c->kstack.symdata;
	size_t used = 0;

	if (str)
		str[0] = '\0';
	while (*callers) {
		size_t len = 0;
		unsigned long long addr;
		int n;

		while (*callers == ' ')
			callers++;
		while (callers[len] && callers[len] != ' ')
			len++;
		if (len == 0)
			break;
		if (len >= sizeof(tok))
			len = sizeof(tok) - 1; /* longer than any address: garbage */
		memcpy(tok, callers, len);
		tok[len] = '\0';
		callers += len;
		if (kstrtoull(tok, 16, &addr) != 0)
			addr = 0;
		if (user)
			stp_usym_sprint(c, data, addr, STP_SYM_DATA);
		else
			stp_ksym_sprint(c, data, (unsigned long)addr, STP_SYM_DATA);
		if (!str) {
			stp_printf(c, " %s : %s\n", tok, data);
			continue;
		}
		n = snprintf(NULL, 0, " %s : %s\n", tok, data);
		if (used + n > MAXSTRINGLEN)
			break;
		snprintf(str + used, MAXSTRINGLEN - used, " %s : %s\n", tok, data);
		used = min_t(size_t, used + n, MAXSTRINGLEN - 1);
	}
}

/* ucallers(n) / callers(n): frames 0..n as "0xADDR" separated by spaces
 * (n == -1: every frame), cut before an address that would not fit in
 * MAXSTRINGLEN; false (and str holds what fit) when the stack ends first. */
bool stp_callers(struct stp_context *c, char *str, s64 n, bool user)
{
	size_t used = 0;
	s64 i;

	str[0] = '\0';
	for (i = 0; i <= n || n == -1; i++) {
		u64 pc = user ? stp_ustack_pc(c, (unsigned)min_t(s64, i, UINT_MAX))
			      : stp_kstack_pc(c, (unsigned)min_t(s64, i, UINT_MAX));
		int len;

		if (i >= MAXBACKTRACE || pc == 0)
			return n == -1;
		len = snprintf(NULL, 0, "%s0x%llx", i ? " " : "", (unsigned long long)pc);
		if (used + len > MAXSTRINGLEN)
			break;
		snprintf(str + used, MAXSTRINGLEN - used, "%s0x%llx", i ? " " : "",
			 (unsigned long long)pc);
		used = min_t(size_t, used + len, MAXSTRINGLEN - 1);
	}
	return true;
}
