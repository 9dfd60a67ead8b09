/* Building an unwind table (docs/unwind.md, "Table format (version 1)")
 * from an ELF image in memory, in freestanding C: the kernel runtime uses it
 * for the vdso, whose image only the running kernel has; the host unit test
 * compares it byte for byte with translator/symtab's builder.
 *
 * What goes in: the FDE index (from .eh_frame_hdr when it is consistent
 * with .eh_frame, else from a walk of .eh_frame), a copy of .eh_frame, and
 * the STT_FUNC/STT_GNU_IFUNC symbols of .symtab and .dynsym, chosen and
 * sized as translator/symtab does. .debug_frame is not read (the vdso
 * images are stripped of it). Every offset read from the image is checked
 * against its length: a malformed image gives an error, never a bad read. */
#ifndef STP_TASK_ELF_TABLE_H
#define STP_TASK_ELF_TABLE_H

#include "uw_types.h"

/* Where the builder gets memory (kvmalloc in the kernel, malloc on the
 * host). alloc may fail (NULL). */
struct stp_et_alloc {
	void *(*alloc)(void *ctx, unsigned long size);
	void (*free)(void *ctx, void *p);
	void *ctx;
};

enum {
	STP_ET_OK = 0,
	STP_ET_EBADELF = -1,  /* not a little-endian x86_64/i386 ELF, or bounds */
	STP_ET_EBADCFI = -2,  /* .eh_frame does not parse */
	STP_ET_ENOMEM = -3,
};

/* Builds the table of the ELF image img[0..len): on success *out (from
 * a->alloc, the caller frees it) holds *out_len bytes. Returns STP_ET_*. */
int stp_elf_table_build(const uw_u8 *img, uw_u32 len, const struct stp_et_alloc *a,
			uw_u8 **out, uw_u32 *out_len);

#endif /* STP_TASK_ELF_TABLE_H */
