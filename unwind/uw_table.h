/* Internal: the table format's constants and the FDE lookup. The format
 * itself is documented in docs/unwind.md; translator/symtab writes it. */
#ifndef UW_TABLE_H
#define UW_TABLE_H

#include "uw_cfi.h"

#define UW_TABLE_MAGIC 0x31545755u /* "UWT1" little-endian */
#define UW_TABLE_VERSION 1
#define UW_TABLE_HEADER_SIZE 72
#define UW_FDE_ENTRY_SIZE 8
#define UW_SYM_ENTRY_SIZE 12
#define UW_FDE_REF_DEBUG_FRAME 0x80000000u /* fde_ref: in .debug_frame */

/* Header field offsets. */
enum {
  UW_HDR_MAGIC = 0,
  UW_HDR_ARCH = 4,
  UW_HDR_VERSION = 5,
  UW_HDR_SIZE = 6,
  UW_HDR_TOTAL_LEN = 8,
  UW_HDR_FDE_COUNT = 12,
  UW_HDR_FDE_INDEX = 16,
  UW_HDR_EH_FRAME = 20,
  UW_HDR_EH_FRAME_LEN = 24,
  UW_HDR_DEBUG_FRAME = 28,
  UW_HDR_DEBUG_FRAME_LEN = 32,
  UW_HDR_SYM_COUNT = 36,
  UW_HDR_SYMS = 40,
  UW_HDR_STRINGS = 44,
  UW_HDR_STRINGS_LEN = 48,
  UW_HDR_ADDR_BASE = 56,
  UW_HDR_EH_FRAME_VADDR = 64
};

/* The CFI section an FDE reference points into. */
void uw_table_section(const struct uw_table *t, int debug_frame,
                      struct uw_cfi_section *s);

/* Finds the FDE covering link-time address addr, parsing it with the
 * scratch cursor and the CIE cache (may be null). Returns 0, UW_ENOCFI,
 * or UW_EBADCFI when the indexed record does not parse. */
int uw_table_find_fde(const struct uw_table *t, uw_u64 addr,
                      struct uw_cfi_section *s, struct uw_fde *fde,
                      struct uw_cursor *scratch, struct uw_cie_cache *cache);

/* Little-endian loads from validated table memory. */
static inline uw_u32 uw_le32(const uw_u8 *p) {
  return (uw_u32)p[0] | (uw_u32)p[1] << 8 | (uw_u32)p[2] << 16 |
         (uw_u32)p[3] << 24;
}
static inline uw_u64 uw_le64(const uw_u8 *p) {
  return (uw_u64)uw_le32(p) | (uw_u64)uw_le32(p + 4) << 32;
}

#endif
