/* Tables as modules carry them: a reversible in-place transform of a table
 * blob (the format of uw_table.h, unchanged) that makes it compress better
 * before the translator zlib-compresses it; the runtime inflates, unpacks,
 * then validates with uw_table_open() as for any blob. Measured on
 * `-d /bin/ls --ldd`: zlib alone 153 KB (x86_64) / 212 KB (i686), packed
 * first 99 KB / 165 KB.
 *
 *   FDE index  {pc_off, fde_ref}[n]       -> deltas of each, in 8 byte planes
 *   symbols    {start, size, name}[n]     -> start and name as deltas, 12 planes
 *   .eh_frame  each FDE's CIE pointer     -> a bijection of the CIE's offset
 *              each FDE's pc_begin        -> delta of (value + its position)
 *
 * Record lengths are never changed, so both directions walk the same
 * records; every step is a bijection of 32-bit values, so unpack(pack(x))
 * is x for any blob whose header passes the checks, hostile ones included.
 * Freestanding, no allocation, loops bounded by the blob's length. */
#ifndef UW_PACK_H
#define UW_PACK_H

#include "uw_types.h"

/* The scratch space pack and unpack need for this blob, or 0 when its header
 * is not a table's whose arrays lie inside the blob (then neither touches
 * it: uw_table_open() will reject it). */
uw_u32 uw_pack_scratch_size(const void *blob, uw_u32 len);

/* In place; scratch has uw_pack_scratch_size() bytes. 0, or -1 (nothing
 * changed) when the header does not pass the checks. */
int uw_pack(void *blob, uw_u32 len, void *scratch);
int uw_unpack(void *blob, uw_u32 len, void *scratch);

#endif
