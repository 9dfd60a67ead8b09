/* Helpers for the syscall tapset's argument decoders (tapsets/syscall_flags.stp,
 * syscall_structs.stp, syscall_args.stp include this from their file-level
 * embedded C; the include guard keeps one copy per module).
 *
 * Symbolic names come in tables of { value, "NAME" } whose values are the
 * kernel headers' own macros (STP_SYM(O_CREAT)): nothing is numbered by
 * hand. Output follows SystemTap 4.8 (and strace): a value's name or the
 * number, flags joined by "|" with unknown bits last in hex.
 *
 * Probe context: no sleeping, bounded work, user memory only through the
 * nofault copies of stp_strings.h. */
#ifndef STP_SYSCALL_DECODE_H
#define STP_SYSCALL_DECODE_H

#include <linux/sched/task_stack.h>
#include <linux/signal.h>
#include <linux/fcntl.h>
#include <asm/syscall.h>
#include "stp_strings.h"

struct stp_sym {
	long long val;
	const char *name;
};
#define STP_SYM(x) { (long long)(x), #x }
#define STP_SYM_END { 0, NULL }

static inline void stp_append(char *out, const char *s)
{
	strlcat(out, s, MAXSTRINGLEN);
}

/* A number as the decoders print one they cannot name: base 16 "0x1f",
 * 10 "31", 8 "037". */
static inline void stp_append_number(char *out, long long val, int base)
{
	if (base == 10)
		stp_appendf(out, "%lld", val);
	else if (base == 8)
		stp_appendf(out, "%#llo", val);
	else
		stp_appendf(out, "0x%llx", val);
}

/* Appends the name of `val` in `t`, else the number. */
static inline void stp_sym_append(char *out, const struct stp_sym *t, long long val, int base)
{
	for (; t->name; ++t)
		if (t->val == val) {
			stp_append(out, t->name);
			return;
		}
	stp_append_number(out, val, base);
}

/* Appends the flags of `val`: each entry of `t` that shares a bit with
 * what is left, in table order, then any remaining bits; 0 is looked up
 * as a value. */
static inline void stp_flags_append(char *out, const struct stp_sym *t, long long val, int base)
{
	bool any = false;
	if (val == 0) {
		stp_sym_append(out, t, 0, base);
		return;
	}
	for (; t->name; ++t) {
		if (!(t->val & val))
			continue;
		if (any)
			stp_append(out, "|");
		stp_append(out, t->name);
		val &= ~t->val;
		any = true;
	}
	if (val) {
		if (any)
			stp_append(out, "|");
		stp_append_number(out, val, base);
	}
}

/* Whether the current system call uses the 32-bit ABI (i386 programs,
 * and 32-bit programs on an x86_64 kernel). */
static inline bool stp_syscall_abi32(void)
{
#ifdef CONFIG_X86_64
	return in_ia32_syscall();
#else
	return true;
#endif
}

/* A 32-bit program on a 64-bit kernel: its structures have the compat
 * layout. */
static inline bool stp_syscall_compat(void)
{
#ifdef CONFIG_X86_64
	return in_ia32_syscall();
#else
	return false;
#endif
}

/* Reads `size` bytes of user memory; 0 on success. */
static inline int stp_user_read(void *dst, unsigned long addr, size_t size)
{
	if (!addr)
		return -EFAULT;
	return stp_read_nofault(dst, addr, size, 1) ? -EFAULT : 0;
}

/* Decodes one UTF-8 sequence at in[0..len): its length and code point, or
 * 1 and the byte itself when it is not a valid, shortest-form sequence. */
static inline int stp_utf8_decode(const unsigned char *in, long len, u32 *cp)
{
	int n, i;
	u32 c;
	unsigned char b = in[0];
	if ((b & 0xE0) == 0xC0 && len >= 2)
		n = 2, c = b & 0x1F;
	else if ((b & 0xF0) == 0xE0 && len >= 3)
		n = 3, c = b & 0x0F;
	else if ((b & 0xF8) == 0xF0 && len >= 4)
		n = 4, c = b & 0x07;
	else
		goto verbatim;
	for (i = 1; i < n; ++i) {
		if ((in[i] & 0xC0) != 0x80)
			goto verbatim;
		c = (c << 6) | (in[i] & 0x3F);
	}
	if ((c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF || c < 0x80 ||
	    (n == 3 && c < 0x800) || (n == 4 && c < 0x10000))
		goto verbatim;
	*cp = c;
	return n;
verbatim:
	*cp = b;
	return 1;
}

/* The syscall tapset's quoting of user data (4.8's user_buffer_quoted):
 * `in` holds `len` bytes; printable ASCII stays, '"' '\\' and \a \b \f
 * \n \r \t \v get a backslash, valid UTF-8 becomes \uXXXX (\UXXXXXXXX),
 * other bytes \ooo (a NUL \0 in a buffer; a string ends there). The
 * result, quotes included, is at most `outlen` characters: a longer input
 * ends in `"...` after as much as fits. */
static inline void stp_quote_data(char *out, const unsigned char *in, long len, long outlen,
			   bool buffer)
{
	static const char short_esc[] = "\aa\bb\ff\nn\rr\tt\vv\"\"\\\\";
	char *o = out, *esc = NULL;
	int esc_len = 0;
	bool more = false;
	u32 c = 0;

	if (outlen <= 0 || outlen > MAXSTRINGLEN - 1)
		outlen = MAXSTRINGLEN - 1;
	outlen = max_t(long, outlen, 5) - 2;
	*o++ = '"';
	while (len > 0) {
		int n = stp_utf8_decode(in, len, &c), num;
		if ((c == 0 && !buffer) || outlen <= 0) {
			more = c != 0;
			break;
		}
		in += n;
		len -= n;
		if (n > 1) {
			num = c <= 0xFFFF ? 6 : 10;
		} else if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			num = 1;
		} else {
			const char *e;
			for (e = short_esc; *e && (unsigned char)*e != c; e += 2)
				;
			num = *e ? 2 : 4;
		}
		if (num > 1 && !esc && outlen - 3 < num)
			esc = o, esc_len = num;
		if (outlen < num) {
			more = true;
			break;
		}
		if (num == 1) {
			*o++ = c;
		} else if (n > 1) {
			o += sprintf(o, c <= 0xFFFF ? "\\u%04x" : "\\U%08x", c);
		} else if (num == 2) {
			const char *e;
			for (e = short_esc; (unsigned char)*e != c; e += 2)
				;
			*o++ = '\\';
			*o++ = e[1];
		} else if (c == 0) {
			*o++ = '\\';
			*o++ = '0';
		} else {
			o += sprintf(o, "\\%03o", c);
		}
		outlen -= num;
	}
	if (more && len > 0) {
		char *cut = o - 3 + outlen;
		o = (esc && esc < cut && cut < esc + esc_len) ? esc : cut;
		memcpy(o, "\"...", 4);
		o += 4;
	} else {
		*o++ = '"';
	}
	*o = '\0';
}

/* The signals by name (SIGIO and SIGPOLL are one number). */
static const struct stp_sym stp_signal_syms[] __maybe_unused = {
	{ 0, "SIG_0" },
	STP_SYM(SIGHUP), STP_SYM(SIGINT), STP_SYM(SIGQUIT), STP_SYM(SIGILL),
	STP_SYM(SIGTRAP), STP_SYM(SIGABRT), STP_SYM(SIGBUS), STP_SYM(SIGFPE),
	STP_SYM(SIGKILL), STP_SYM(SIGUSR1), STP_SYM(SIGSEGV), STP_SYM(SIGPIPE),
	STP_SYM(SIGUSR2), STP_SYM(SIGALRM), STP_SYM(SIGTERM), STP_SYM(SIGCHLD),
	STP_SYM(SIGCONT), STP_SYM(SIGSTOP), STP_SYM(SIGTSTP), STP_SYM(SIGTTIN),
	STP_SYM(SIGTTOU), STP_SYM(SIGURG), STP_SYM(SIGXCPU), STP_SYM(SIGXFSZ),
	STP_SYM(SIGVTALRM), STP_SYM(SIGPROF), STP_SYM(SIGWINCH),
	{ SIGIO, "SIGIO/SIGPOLL" },
	STP_SYM(SIGPWR), STP_SYM(SIGSYS),
	{ SIGTRAP | 0x80, "TRACESYSGOOD" },
	STP_SYM_END
};

/* "[SIGINT|SIGTERM]" for the signals in a 64-bit mask, "[EMPTY]". */
static inline void stp_sigmask_append(char *out, u64 mask)
{
	const struct stp_sym *s;
	bool any = false;
	for (s = stp_signal_syms; s->name; ++s) {
		if (s->val <= 0 || s->val > 64 || !(mask & (1ULL << (s->val - 1))))
			continue;
		stp_append(out, any ? "|" : "[");
		stp_append(out, s->name);
		any = true;
	}
	stp_append(out, any ? "]" : "[EMPTY]");
}

/* open(2) flags after the access mode. */
static const struct stp_sym stp_open_flag_syms[] __maybe_unused = {
	STP_SYM(O_CREAT), STP_SYM(O_EXCL), STP_SYM(O_NOCTTY), STP_SYM(O_TRUNC),
	STP_SYM(O_APPEND), STP_SYM(O_NONBLOCK), STP_SYM(O_SYNC), STP_SYM(O_DSYNC),
	{ FASYNC, "O_ASYNC" }, STP_SYM(O_DIRECT), STP_SYM(O_LARGEFILE),
	STP_SYM(O_DIRECTORY), STP_SYM(O_NOFOLLOW), STP_SYM(O_NOATIME),
	STP_SYM(O_CLOEXEC), STP_SYM(O_PATH),
	STP_SYM_END
};

/* clone(2) flags; the low byte is the exit signal. */
static const struct stp_sym stp_clone_flag_syms[] __maybe_unused = {
	STP_SYM(CLONE_VM), STP_SYM(CLONE_FS), STP_SYM(CLONE_FILES),
	STP_SYM(CLONE_SIGHAND), STP_SYM(CLONE_PTRACE), STP_SYM(CLONE_VFORK),
	STP_SYM(CLONE_PARENT), STP_SYM(CLONE_THREAD), STP_SYM(CLONE_NEWNS),
	STP_SYM(CLONE_SYSVSEM), STP_SYM(CLONE_SETTLS), STP_SYM(CLONE_PARENT_SETTID),
	STP_SYM(CLONE_CHILD_CLEARTID), STP_SYM(CLONE_DETACHED), STP_SYM(CLONE_UNTRACED),
	STP_SYM(CLONE_CHILD_SETTID), STP_SYM(CLONE_NEWCGROUP), STP_SYM(CLONE_NEWUTS),
	STP_SYM(CLONE_NEWIPC), STP_SYM(CLONE_NEWUSER), STP_SYM(CLONE_NEWPID),
	STP_SYM(CLONE_NEWNET), STP_SYM(CLONE_IO),
	STP_SYM_END
};

#endif /* STP_SYSCALL_DECODE_H */
