/* The line table reader (line_table.h). Fields are read byte by byte,
 * little-endian, so neither the blob's alignment nor the host's byte order
 * matters. */
#include "line_table.h"

static uw_u32 stp_lines_u32(const uw_u8 *p)
{
	return (uw_u32)p[0] | (uw_u32)p[1] << 8 | (uw_u32)p[2] << 16 | (uw_u32)p[3] << 24;
}

/* The array of `count` entries of `size` bytes at header field `at`,
 * inside blob[0..len): its start, or NULL. */
static const uw_u8 *stp_lines_array(const uw_u8 *b, uw_u32 len, uw_u32 at, uw_u32 size,
				    uw_u32 *count)
{
	uw_u32 n = stp_lines_u32(b + at), off = stp_lines_u32(b + at + 4);

	if (off < STP_LINES_HEADER || off > len || (uw_u64)n * size > len - off)
		return 0;
	*count = n;
	return b + off;
}

/* Entries of `size` bytes whose first u32 strictly increases. */
static int stp_lines_sorted(const uw_u8 *a, uw_u32 n, uw_u32 size)
{
	uw_u32 i;

	for (i = 1; i < n; i++)
		if (stp_lines_u32(a + (i - 1) * size) >= stp_lines_u32(a + i * size))
			return 0;
	return 1;
}

int stp_lines_open(struct stp_lines *t, const void *blob, uw_u32 len)
{
	const uw_u8 *b = blob;
	uw_u32 i, str_off;

	if (!b || len < STP_LINES_HEADER || stp_lines_u32(b) != STP_LINES_MAGIC ||
	    stp_lines_u32(b + 4) != len)
		return -1;
	t->blob = b;
	t->rows = stp_lines_array(b, len, 8, 8, &t->nrows);
	t->spans = stp_lines_array(b, len, 16, 8, &t->nspans);
	t->files = stp_lines_array(b, len, 24, 4, &t->nfiles);
	str_off = stp_lines_u32(b + 32);
	t->strings_len = stp_lines_u32(b + 36);
	t->addr_base = (uw_u64)stp_lines_u32(b + 40) | (uw_u64)stp_lines_u32(b + 44) << 32;
	if (!t->rows || !t->spans || !t->files || str_off < STP_LINES_HEADER || str_off > len ||
	    t->strings_len > len - str_off || t->strings_len == 0)
		return -1;
	t->strings = (const char *)b + str_off;
	/* every name ends inside the pool: the last byte is a NUL */
	if (t->strings[t->strings_len - 1] != '\0')
		return -1;
	if (!stp_lines_sorted(t->rows, t->nrows, 8) || !stp_lines_sorted(t->spans, t->nspans, 8))
		return -1;
	for (i = 0; i < t->nfiles; i++)
		if (stp_lines_u32(t->files + 4 * i) >= t->strings_len)
			return -1;
	for (i = 0; i < t->nspans; i++)
		if (stp_lines_u32(t->spans + 8 * i + 4) >= t->nfiles)
			return -1;
	return 0;
}

/* The index of the last entry whose first u32 is <= key, or -1. */
static long stp_lines_search(const uw_u8 *a, uw_u32 n, uw_u32 size, uw_u32 key)
{
	uw_u32 lo = 0, hi = n; /* the answer is in [lo - 1, hi) */

	while (lo < hi) {
		uw_u32 mid = lo + (hi - lo) / 2;
		if (stp_lines_u32(a + mid * size) <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
}

int stp_lines_find(const struct stp_lines *t, uw_u64 addr, const char **file, uw_u32 *line)
{
	uw_u64 off64;
	uw_u32 off, l;
	long r, s;

	if (addr < t->addr_base || addr - t->addr_base > 0xffffffffu)
		return 0;
	off64 = addr - t->addr_base;
	off = (uw_u32)off64;
	r = stp_lines_search(t->rows, t->nrows, 8, off);
	if (r < 0)
		return 0;
	l = stp_lines_u32(t->rows + 8 * (uw_u32)r + 4);
	if (l == 0)
		return 0;
	s = stp_lines_search(t->spans, t->nspans, 8, off);
	if (s < 0)
		return 0;
	*file = t->strings + stp_lines_u32(t->files + 4 * stp_lines_u32(t->spans + 8 * (uw_u32)s + 4));
	*line = l;
	return 1;
}
