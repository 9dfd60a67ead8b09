/* String helpers for the tapset library (string.stp, conversions.stp,
 * uconversions.stp, tokenize.stp include this from their file-level
 * embedded C; the include guard keeps one copy per module).
 *
 * Everything here runs in probe context: no sleeping, no allocation.
 * Memory at script-supplied addresses is only read through the kernel's
 * *_nofault copy functions, so a bad address is a run-time error, never an
 * oops. Scratch space is per CPU: a handler runs with interrupts off and
 * never nests on its CPU (see stp_run_probe). */
#ifndef STP_STRINGS_H
#define STP_STRINGS_H

#include <linux/ctype.h>
#include <linux/percpu.h>
#include <linux/uaccess.h>

static DEFINE_PER_CPU(char [MAXSTRINGLEN], stp_string_scratch);

/* A MAXSTRINGLEN buffer for this CPU, valid until the handler returns to
 * script code. */
static inline char *stp_scratch(void)
{
	return this_cpu_ptr(stp_string_scratch);
}

/* Reports "WHAT copy fault at 0xADDR" as the handler's error. */
static inline void stp_copy_fault(struct stp_context *c, const char *what, unsigned long addr)
{
	snprintf(c->error_buf, sizeof(c->error_buf), "%s copy fault at 0x%lx", what, addr);
	stp_error(c, c->error_buf);
}

/* Reads `size` bytes at a kernel or user address; non-zero on a fault. */
static inline long stp_read_nofault(void *dst, unsigned long addr, size_t size, int user)
{
	if (user)
		return copy_from_user_nofault(dst, (const void __user *)addr, size);
	return copy_from_kernel_nofault(dst, (const void *)addr, size);
}

/* Copies the NUL-terminated string at kernel (user == 0) or user address
 * `addr` into `dst`, at most `len - 1` bytes and a NUL. Returns the length
 * copied, or < 0 on a fault. (The strncpy_*_nofault functions are not
 * exported to modules: this reads page by page with copy_*_nofault, so
 * it never touches a page past the one holding the terminating NUL.) */
static inline long stp_copy_string(char *dst, unsigned long addr, long len, int user)
{
	long n = 0;
	if (len <= 0)
		return 0;
	while (n < len - 1) {
		unsigned long a = addr + n;
		size_t chunk = min_t(size_t, len - 1 - n, PAGE_SIZE - offset_in_page(a));
		char *nul;
		if (stp_read_nofault(dst + n, a, chunk, user)) {
			dst[0] = '\0';
			return -EFAULT;
		}
		nul = memchr(dst + n, '\0', chunk);
		if (nul)
			return nul - dst;
		n += chunk;
	}
	dst[n] = '\0';
	return n;
}

/* Escapes `in` into `out` (MAXSTRINGLEN bytes) as text_str/text_strn do:
 * printable ASCII stays, '"' and '\\' and \a \b \f \n \r \t \v get a
 * backslash, other bytes become \ooo. At most `outlen` characters of
 * escaped text (0 or more than fits: MAXSTRINGLEN - 1), never splitting an
 * escape. `quoted` puts the text in double quotes, and "..." after the
 * closing quote when the input was cut short. */
static inline void stp_text_str(char *out, const char *in, long outlen, int quoted)
{
	static const char short_esc[] = "\aa\bb\ff\nn\rr\tt\vv\"\"\\\\";
	char *o = out;
	bool truncated = false;

	if (outlen <= 0 || outlen > MAXSTRINGLEN - 1)
		outlen = MAXSTRINGLEN - 1;
	if (quoted) {
		/* room for the quotes and the "..." marker */
		outlen = max_t(long, outlen, 5) - 2;
		if (outlen > MAXSTRINGLEN - 1 - 5)
			outlen = MAXSTRINGLEN - 1 - 5;
		*o++ = '"';
	}
	for (; *in; ++in) {
		unsigned char ch = *in;
		const char *e = NULL;
		long need;
		if (ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\') {
			need = 1;
		} else {
			for (e = short_esc; *e; e += 2)
				if ((unsigned char)e[0] == ch)
					break;
			need = *e ? 2 : 4;
		}
		if (need > outlen) {
			truncated = true;
			break;
		}
		outlen -= need;
		if (need == 1) {
			*o++ = ch;
		} else if (need == 2) {
			*o++ = '\\';
			*o++ = e[1];
		} else {
			*o++ = '\\';
			*o++ = '0' + ((ch >> 6) & 7);
			*o++ = '0' + ((ch >> 3) & 7);
			*o++ = '0' + (ch & 7);
		}
	}
	if (quoted) {
		*o++ = '"';
		if (truncated) {
			memcpy(o, "...", 3);
			o += 3;
		}
	}
	*o = '\0';
}

/* Appends printf-formatted text to the MAXSTRINGLEN string `out`. */
static inline __printf(2, 3) void stp_appendf(char *out, const char *fmt, ...)
{
	size_t len = strnlen(out, MAXSTRINGLEN - 1);
	va_list args;
	va_start(args, fmt);
	vsnprintf(out + len, MAXSTRINGLEN - len, fmt, args);
	va_end(args);
}

#endif /* STP_STRINGS_H */
