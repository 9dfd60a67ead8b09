/* Portability header for unwind/: the only header the unwinder includes
 * from outside itself. In the kernel it maps to <linux/types.h>; on the host
 * to the freestanding <stdint.h>/<stddef.h>. Nothing here allocates or
 * touches libc. */
#ifndef UW_TYPES_H
#define UW_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/math64.h>
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

/* Keeps a function out of its caller, so that the caller's frame (live
 * during the whole step) does not grow by the callee's locals: the step's
 * stack use is the deepest chain of frames, not their sum inlined. */
/* (Spelled with underscores: the kernel defines `noinline` as a macro.) */
#define UW_NOINLINE __attribute__((__noinline__))
/* The opposite, for a helper called from a loop whose frame would
 * otherwise stack on top of its caller's. */
#define UW_ALWAYS_INLINE inline __attribute__((__always_inline__))

/* 64-bit division: 32-bit kernels have no '/' on 64-bit operands (no
 * libgcc), only the math64.h helpers. */
#ifdef __KERNEL__
static inline uw_u64 uw_udiv64(uw_u64 a, uw_u64 b) { return div64_u64(a, b); }
static inline uw_s64 uw_sdiv64(uw_s64 a, uw_s64 b) { return div64_s64(a, b); }
#else
static inline uw_u64 uw_udiv64(uw_u64 a, uw_u64 b) { return a / b; }
static inline uw_s64 uw_sdiv64(uw_s64 a, uw_s64 b) { return a / b; }
#endif
static inline uw_u64 uw_umod64(uw_u64 a, uw_u64 b) { return a - uw_udiv64(a, b) * b; }

#endif
