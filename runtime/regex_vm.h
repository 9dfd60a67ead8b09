/* The regular-expression matcher: a Pike VM over a program the translator
 * compiled from the ERE at translate time (translator/lang/regex.cpp).
 *
 * Pure logic in the common subset of C and C++, so the same code runs in
 * the kernel (regex.c) and in the host unit tests. No recursion, no
 * allocation: the caller passes a workspace of STP_RX_WORKSPACE_INTS ints
 * (sized at translate time), and the work per input byte is bounded by the
 * program size. Semantics: leftmost-longest overall match (POSIX), and
 * among threads giving that match, subexpressions of the highest-priority
 * one (greedy, left alternatives first). */
#ifndef STP_REGEX_VM_H
#define STP_REGEX_VM_H

enum stp_rx_op {
	STP_RX_CHAR,  /* the byte `ch` */
	STP_RX_ANY,   /* any byte */
	STP_RX_CLASS, /* a byte in bitmap `x` */
	STP_RX_SPLIT, /* try `x`, then `y` */
	STP_RX_JMP,   /* go to `x` */
	STP_RX_SAVE,  /* record the position in slot `x` */
	STP_RX_BOL,   /* ^: at the start */
	STP_RX_EOL,   /* $: at the end */
	STP_RX_MATCH,
};

struct stp_rx_inst {
	unsigned char op, ch;
	unsigned short x, y;
};

/* At most 15 subexpressions besides the whole match. */
#define STP_RX_MAXSLOTS 32

struct stp_rx_prog {
	const struct stp_rx_inst *inst;
	unsigned n;                          /* instructions */
	unsigned nslots;                     /* 2 * (subexpressions + 1) */
	const unsigned char (*classes)[32];  /* 256-bit byte sets */
};

/* Ints of workspace for a program of `n` instructions and `nslots` slots:
 * the marks, two thread lists and the closure stack. */
#define STP_RX_WORKSPACE_INTS(n, nslots) \
	((n) + 2 * (1 + (n) * (1 + (nslots))) + (2 * (n) + 1) * (1 + (nslots)))

/* Adds the thread (pc, caps) and everything it reaches without consuming
 * input to `list`, in priority order. Each pc is taken once per position
 * (`gen`), so the stack holds at most 2n + 1 entries. */
static inline void stp_rx_add(const struct stp_rx_prog *p, int *list, int pc, const int *caps, int pos,
			      const char *s, int *mark, int gen, int *stack)
{
	unsigned ns = p->nslots, w = 1 + ns, k;
	int sp = 0, tmp[STP_RX_MAXSLOTS];

	stack[0] = pc;
	for (k = 0; k < ns; k++)
		stack[1 + k] = caps[k];
	sp = 1;
	while (sp > 0) {
		const int *top;
		const struct stp_rx_inst *in;
		int cur;
		sp--;
		top = stack + sp * w;
		cur = top[0];
		for (k = 0; k < ns; k++)
			tmp[k] = top[1 + k];
		if (mark[cur] == gen)
			continue;
		mark[cur] = gen;
		in = &p->inst[cur];
		switch (in->op) {
		case STP_RX_JMP:
		case STP_RX_SPLIT:
		case STP_RX_SAVE:
		case STP_RX_BOL:
		case STP_RX_EOL: {
			int next[2], nn = 0, j;
			if (in->op == STP_RX_JMP) {
				next[nn++] = in->x;
			} else if (in->op == STP_RX_SPLIT) {
				next[nn++] = in->y; /* pushed first, taken last */
				next[nn++] = in->x;
			} else if (in->op == STP_RX_SAVE) {
				tmp[in->x] = pos;
				next[nn++] = cur + 1;
			} else if (in->op == STP_RX_BOL ? pos == 0 : s[pos] == '\0') {
				next[nn++] = cur + 1;
			}
			for (j = 0; j < nn; j++) {
				int *e = stack + sp * w;
				e[0] = next[j];
				for (k = 0; k < ns; k++)
					e[1 + k] = tmp[k];
				sp++;
			}
			break;
		}
		default: {
			int *e = list + 1 + list[0] * w;
			e[0] = cur;
			for (k = 0; k < ns; k++)
				e[1 + k] = tmp[k];
			list[0]++;
			break;
		}
		}
	}
}

/* Searches `s` for the program's pattern. Returns 1 and fills caps[0 ..
 * nslots) with byte offsets (-1: a subexpression that took no part), or
 * returns 0. */
static inline int stp_rx_exec(const struct stp_rx_prog *p, const char *s, int *ws, int *caps)
{
	unsigned n = p->n, ns = p->nslots, w = 1 + ns, k;
	int *mark = ws;
	int *lists[2];
	int *stack = ws + n + 2 * (1 + n * w);
	int init[STP_RX_MAXSLOTS];
	int matched = 0, best_start = -1, best_end = -1, cur = 0, i;
	/* SAVE 0 then BOL: every match starts at offset 0. */
	int anchored = n > 1 && p->inst[1].op == STP_RX_BOL;

	lists[0] = ws + n;
	lists[1] = ws + n + 1 + n * w;
	for (k = 0; k < n; k++)
		mark[k] = 0;
	for (k = 0; k < ns; k++)
		init[k] = -1;
	lists[0][0] = 0;
	for (i = 0;; i++) {
		int *cl = lists[cur], *nl = lists[cur ^ 1];
		unsigned char ch = (unsigned char)s[i];
		int t;
		/* A new thread starts here, with the lowest priority, until
		 * something matched: leftmost wins. A pattern that starts
		 * with ^ can only start at 0. */
		if (!matched && (i == 0 || !anchored))
			stp_rx_add(p, cl, 0, init, i, s, mark, i + 1, stack);
		if (cl[0] == 0 && (matched || ch == '\0' || anchored))
			break;
		nl[0] = 0;
		for (t = 0; t < cl[0]; t++) {
			const int *th = cl + 1 + t * w;
			const struct stp_rx_inst *in = &p->inst[th[0]];
			const int *tc = th + 1;
			int ok = 0;
			if (matched && tc[0] > best_start)
				continue;
			switch (in->op) {
			case STP_RX_MATCH:
				if (!matched || tc[0] < best_start ||
				    (tc[0] == best_start && i > best_end)) {
					for (k = 0; k < ns; k++)
						caps[k] = tc[k];
					matched = 1;
					best_start = tc[0];
					best_end = i;
				}
				break;
			case STP_RX_CHAR:
				ok = ch != '\0' && ch == in->ch;
				break;
			case STP_RX_ANY:
				ok = ch != '\0';
				break;
			case STP_RX_CLASS:
				ok = ch != '\0' && ((p->classes[in->x][ch >> 3] >> (ch & 7)) & 1);
				break;
			}
			if (ok)
				stp_rx_add(p, nl, th[0] + 1, tc, i + 1, s, mark, i + 2, stack);
		}
		if (ch == '\0')
			break;
		cur ^= 1;
	}
	return matched;
}

#endif /* STP_REGEX_VM_H */
