/* Source lines of a user object (usymfileline() and friends): the compact
 * table translator/symtab/line_table.cpp builds from the object's DWARF
 * .debug_line when a script uses them, embedded beside its unwind table
 * (docs/unwind.md, "Line tables (ULT1)").
 *
 * Freestanding C (uw_types.h only): the kernel runtime reads it, and the
 * host unit test runs the same code against libdw. stp_lines_open()
 * validates the whole blob once (bounds, sorted arrays, file indexes,
 * NUL-terminated names), so that stp_lines_find() is two binary searches
 * with no allocation, no sleeping and O(log n) work. */
#ifndef STP_TASK_LINE_TABLE_H
#define STP_TASK_LINE_TABLE_H

#include "uw_types.h"

#define STP_LINES_MAGIC 0x31544c55u /* "ULT1" */
#define STP_LINES_HEADER 48

/* Layout (little-endian, 4-aligned arrays):
 *   0 magic, 4 total length,
 *   8 row count, 12 rows offset: {u32 addr_off, u32 line} sorted by
 *     addr_off, strictly; a row covers up to the next one; line 0 marks
 *     an address no line covers (the end of a sequence);
 *  16 span count, 20 spans offset: {u32 addr_off, u32 file} sorted
 *     strictly; the file of an address is the last span at or below it;
 *  24 file count, 28 files offset: u32 offsets into the string pool;
 *  32 string pool offset, 36 its length (NUL-terminated names);
 *  40 addr_base (u64): addresses are link-time, stored as offsets from it
 *     (the unwind table's addr_base: the lowest PT_LOAD page). */
struct stp_lines {
	const uw_u8 *blob;
	uw_u32 nrows, nspans, nfiles;
	const uw_u8 *rows, *spans, *files;
	const char *strings;
	uw_u32 strings_len;
	uw_u64 addr_base;
};

/* 0, or -1 when blob[0..len) is not a valid table (t is then unusable). */
int stp_lines_open(struct stp_lines *t, const void *blob, uw_u32 len);

/* The source line and file name holding link-time address `addr`; false
 * when no line covers it. *file stays valid as long as the blob. */
int stp_lines_find(const struct stp_lines *t, uw_u64 addr, const char **file, uw_u32 *line);

#endif /* STP_TASK_LINE_TABLE_H */
