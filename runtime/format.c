/* printf pieces the kernel's vsnprintf cannot do the SystemTap way, and the
 * output sink they share with ordinary conversions.
 *
 * The translator cuts a printf/sprintf format into chunks: runs of ordinary
 * conversions go through stp_out_printf (one vsnprintf call), each %p, %b,
 * %m, %M and %#c through stp_out_special. `str` is the sprintf result
 * buffer (MAXSTRINGLEN, appended to) or NULL for the probe's output. */

/* Appends raw bytes (binary %b data may hold NULs) to the output. */
static void stp_out_bytes(struct stp_context *c, char *str, const char *data, unsigned n)
{
	if (str) {
		unsigned len = strnlen(str, MAXSTRINGLEN - 1);
		unsigned room = MAXSTRINGLEN - 1 - len;
		if (n > room)
			n = room;
		memcpy(str + len, data, n);
		str[len + n] = '\0';
		return;
	}
	if (n > STP_PRINT_BUF_SIZE - c->pbuf_len) {
		stp_flush(c);
		if (n > STP_PRINT_BUF_SIZE)
			n = STP_PRINT_BUF_SIZE;
	}
	memcpy(c->pbuf + c->pbuf_len, data, n);
	c->pbuf_len += n;
}

void stp_out_printf(struct stp_context *c, char *str, const char *fmt, ...)
{
	va_list ap;
	unsigned len;

	if (unlikely(c->last_error))
		return;
	if (!str) {
		va_start(ap, fmt);
		stp_vprintf(c, fmt, ap);
		va_end(ap);
		return;
	}
	len = strnlen(str, MAXSTRINGLEN - 1);
	va_start(ap, fmt);
	vsnprintf(str + len, MAXSTRINGLEN - len, fmt, ap);
	va_end(ap);
}

static void stp_out_pad(struct stp_context *c, char *str, int n)
{
	static const char spaces[16] = "                ";
	while (n > 0) {
		int k = min(n, 16);
		stp_out_bytes(c, str, spaces, k);
		n -= k;
	}
}

/* `data` in a field of `width` (-1: none), left-justified with '-'. */
static void stp_out_field(struct stp_context *c, char *str, const char *data, unsigned n,
			  int width, bool left)
{
	int pad = width > (int)n ? width - (int)n : 0;
	if (!left)
		stp_out_pad(c, str, pad);
	stp_out_bytes(c, str, data, n);
	if (left)
		stp_out_pad(c, str, pad);
}

/* %#c: printable characters as they are, others as C escapes or \ooo. */
static unsigned stp_escape_char(char *buf, unsigned char ch)
{
	static const char from[] = "\a\b\f\n\r\t\v\\'\"", to[] = "abfnrtv\\'\"";
	const char *p = ch ? strchr(from, ch) : NULL;
	if (p) {
		buf[0] = '\\';
		buf[1] = to[p - from];
		return 2;
	}
	if (ch >= 32 && ch < 127) {
		buf[0] = ch;
		return 1;
	}
	return snprintf(buf, 8, "\\%03o", ch);
}

/* Reads `n` bytes at `addr` (kernel memory, or user memory for %#m)
 * without faulting; an unreadable address is a run-time error. */
static bool stp_read_memory(struct stp_context *c, void *dst, u64 addr, unsigned n, bool user)
{
	long rc = user ? copy_from_user_nofault(dst, (const void __user *)(unsigned long)addr, n)
		       : copy_from_kernel_nofault(dst, (const void *)(unsigned long)addr, n);
	if (rc == 0)
		return true;
	snprintf(c->error_buf, sizeof(c->error_buf), "%s read fault at 0x%lx",
		 user ? "user" : "kernel", (unsigned long)addr);
	stp_error(c, c->error_buf);
	return false;
}

void stp_out_special(struct stp_context *c, char *str, char conv, const char *flags, int width,
		     int precision, s64 value)
{
	char *buf = c->conv_buf;
	bool left = strchr(flags, '-') != NULL, alt = strchr(flags, '#') != NULL;
	unsigned n = 0, i;

	if (unlikely(c->last_error))
		return;
	/* Bounded work in probe context: one conversion never pads past what
	 * one printf can print (the print buffer), whatever its width or
	 * precision (%#o pads with zeros one byte at a time). */
	width = min(width, STP_PRINT_BUF_SIZE);
	precision = min(precision, STP_PRINT_BUF_SIZE);
	switch (conv) {
	case 'p':
		/* As SystemTap 4.8 prints it: 0x, no zero padding, and the
		 * kernel's pointer size. */
		n = snprintf(buf, sizeof(c->conv_buf), "0x%lx", (unsigned long)value);
		break;
	case 'b': {
		/* The value's low `width` bytes, in the machine's byte order. */
		u8 b8 = value; u16 b16 = value; u32 b32 = value; u64 b64 = value;
		switch (width) {
		case 1: stp_out_bytes(c, str, (const char *)&b8, 1); break;
		case 2: stp_out_bytes(c, str, (const char *)&b16, 2); break;
		case 4: stp_out_bytes(c, str, (const char *)&b32, 4); break;
		default: stp_out_bytes(c, str, (const char *)&b64, 8); break;
		}
		return;
	}
	case 'c':
		n = stp_escape_char(buf, (unsigned char)value);
		break;
	case 'o': {
		/* %#o as SystemTap 4.8 prints it: a '0' before the digits
		 * whatever they are ("00" for 0, where C gives "0"), counted in
		 * the width; zero padding goes between the two. */
		char digits[24];
		int nd = snprintf(digits, sizeof(digits), "%llo", (unsigned long long)value);
		int prec = max(precision, nd);
		int pad = max(width - 1 - prec, 0);
		bool zero = strchr(flags, '0') && !left;
		int k;
		if (!zero && !left)
			stp_out_pad(c, str, pad);
		stp_out_bytes(c, str, "0", 1);
		for (k = 0; zero && k < pad; k++)
			stp_out_bytes(c, str, "0", 1);
		for (k = nd; k < prec; k++)
			stp_out_bytes(c, str, "0", 1);
		stp_out_bytes(c, str, digits, nd);
		if (left)
			stp_out_pad(c, str, pad);
		return;
	}
	case 'm':
	case 'M': {
		/* The precision is the number of bytes (default 1). */
		unsigned len = precision < 0 ? 1 : min_t(unsigned, precision, MAXSTRINGLEN);
		char *bytes = buf + sizeof(c->conv_buf) - MAXSTRINGLEN;
		if (!stp_read_memory(c, bytes, value, len, alt))
			return;
		if (conv == 'm') {
			memmove(buf, bytes, len);
			n = len;
		} else {
			for (i = 0; i < len; i++)
				n += snprintf(buf + n, 3, "%02x", (unsigned char)bytes[i]);
		}
		break;
	}
	default:
		return;
	}
	stp_out_field(c, str, buf, n, width, left);
}
