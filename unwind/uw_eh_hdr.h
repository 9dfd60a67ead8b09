/* Internal: reading the binary search table of an .eh_frame_hdr section
 * (used to index FDEs quickly, and to look pcs up in a raw header). */
#ifndef UW_EH_HDR_H
#define UW_EH_HDR_H

#include "uw_read.h"

struct uw_eh_hdr {
  const uw_u8 *data;
  uw_u32 len;
  uw_u64 vaddr;        /* link-time address of the section */
  unsigned addr_size;
  uw_u64 eh_frame;     /* link-time address of .eh_frame */
  uw_u8 table_enc;
  unsigned entry_size; /* bytes of one (pc, fde) pair */
  uw_u32 table_off;    /* offset of the table in data */
  uw_u32 count;
};

/* Returns 0, or -1 if the header is malformed or has no usable table. */
int uw_eh_hdr_open(struct uw_eh_hdr *h, const uw_u8 *data, uw_u32 len,
                   uw_u64 vaddr, unsigned addr_size);
/* Entry i: the function start and the FDE address (link-time). */
int uw_eh_hdr_entry(const struct uw_eh_hdr *h, uw_u32 i, uw_u64 *pc,
                    uw_u64 *fde);
/* The FDE address for the last entry starting at or below pc. The FDE's
 * own range must still be checked. Returns 0 or -1. */
int uw_eh_hdr_find(const struct uw_eh_hdr *h, uw_u64 pc, uw_u64 *fde);

#endif
