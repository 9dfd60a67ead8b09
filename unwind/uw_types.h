/* Portability header for unwind/: the only header the unwinder includes
 * from outside itself. In the kernel it maps to <linux/types.h>; on the host
 * to the freestanding <stdint.h>/<stddef.h>. Nothing here allocates or
 * touches libc. */
#ifndef UW_TYPES_H
#define UW_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
typedef u8 uw_u8;
typedef u16 uw_u16;
typedef s16 uw_s16;
typedef u32 uw_u32;
typedef u64 uw_u64;
typedef s8 uw_s8;
typedef s32 uw_s32;
typedef s64 uw_s64;
#else
#include <stddef.h>
#include <stdint.h>
typedef uint8_t uw_u8;
typedef uint16_t uw_u16;
typedef int16_t uw_s16;
typedef uint32_t uw_u32;
typedef uint64_t uw_u64;
typedef int8_t uw_s8;
typedef int32_t uw_s32;
typedef int64_t uw_s64;
#endif

#endif
