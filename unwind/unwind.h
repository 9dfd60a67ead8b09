/* unwind/: a DWARF call-frame unwinder for user-space stacks.
 *
 * This is the whole public interface; the kernel runtime includes only this
 * file. The code is freestanding C11: no libc, no allocation, no recursion,
 * no floating point, bounded loops, small stack: a step keeps its big state
 * (register rows, remembered states, expression stack) in a caller-provided
 * workspace and itself uses under 384 bytes of stack.
 *
 * Usage: for each object mapped in the target (executable, shared library,
 * vDSO) the translator side builds an unwind table (see docs/unwind.md and
 * translator/symtab/). At run time:
 *
 *   struct uw_table t;  uw_table_open(&t, blob, blob_len);
 *   struct uw_regs r;   fill r.val[], set r.valid bits, r.arch, r.flags = UW_PC_EXACT
 *   struct uw_workspace *ws (per CPU in the kernel);  uw_workspace_init(ws);
 *   loop: find the object containing uw_pc(&r); obj = { &t, load_bias };
 *         rc = uw_step_ws(&obj, &r, &mem, ws);
 *         rc == UW_OK: r now holds the caller's registers
 *         rc == UW_END: r was the outermost frame
 *         rc <  0: the walk cannot continue exactly (an honest stop)
 */
#ifndef UW_UNWIND_H
#define UW_UNWIND_H

#include "uw_types.h"

/* ---- Architectures and registers (DWARF numbering) ---------------------- */

enum uw_arch { UW_ARCH_X86_64 = 1, UW_ARCH_I386 = 2 };

/* x86_64: 0 rax 1 rdx 2 rcx 3 rbx 4 rsi 5 rdi 6 rbp 7 rsp 8-15 r8-r15 16 rip.
 * i386:   0 eax 1 ecx 2 edx 3 ebx 4 esp 5 ebp 6 esi 7 edi 8 eip. */
#define UW_NREGS 17
#define UW_X86_64_SP 7
#define UW_X86_64_PC 16
#define UW_I386_SP 4
#define UW_I386_PC 8

/* uw_regs.flags */
#define UW_PC_EXACT 1u /* pc is the interrupted instruction, not a return
                          address: look its CFI up at pc, not at pc-1 */

struct uw_regs {
  uw_u64 val[UW_NREGS];
  uw_u32 valid; /* bit n set: val[n] is known */
  uw_u8 arch;   /* enum uw_arch */
  uw_u8 flags;  /* UW_PC_EXACT */
};

static inline int uw_reg_valid(const struct uw_regs *r, unsigned n) {
  return n < UW_NREGS && (r->valid >> n) & 1u;
}
unsigned uw_pc_reg(uw_u8 arch);
unsigned uw_sp_reg(uw_u8 arch);
unsigned uw_addr_size(uw_u8 arch);
static inline uw_u64 uw_pc(const struct uw_regs *r) {
  return r->val[uw_pc_reg(r->arch)];
}

/* ---- Memory of the unwound process -------------------------------------- */

/* Reads len bytes at addr into dst; returns 0 on success, nonzero if the
 * memory is not readable. Every read the unwinder makes goes through here. */
typedef int (*uw_read_fn)(void *ctx, uw_u64 addr, void *dst, uw_u32 len);
struct uw_memory {
  uw_read_fn read;
  void *ctx;
};

/* ---- Unwind tables (format in docs/unwind.md, built by translator/symtab) */

struct uw_table {
  const uw_u8 *base;
  uw_u32 len;
  uw_u8 arch;
  uw_u64 addr_base;          /* link-time address all u32 offsets add to */
  const uw_u8 *fde_index;    /* fde_count x {u32 pc_off, u32 fde_ref} */
  uw_u32 fde_count;
  const uw_u8 *eh_frame;     /* copy of .eh_frame (may be null) */
  uw_u32 eh_frame_len;
  uw_u64 eh_frame_vaddr;
  const uw_u8 *debug_frame;  /* copy of .debug_frame (may be null) */
  uw_u32 debug_frame_len;
  const uw_u8 *syms;         /* sym_count x {u32 start_off, u32 size, u32 name} */
  uw_u32 sym_count;
  const char *strings;
  uw_u32 strings_len;
};

/* Validates a table blob (every offset and count in bounds) and fills t.
 * Returns 0 or a negative UW_E* code. A blob that passes is safe to use. */
int uw_table_open(struct uw_table *t, const void *blob, uw_u32 len);

/* The symbol containing link-time address addr: its name (NUL-terminated,
 * inside the table), start and size. Returns 0 if found, -1 if not. */
int uw_table_symbol(const struct uw_table *t, uw_u64 addr, const char **name,
                    uw_u64 *start, uw_u64 *size);

/* ---- The unwind step ---------------------------------------------------- */

/* An object mapped in the process: its table and its load bias
 * (run-time address minus link-time address). */
struct uw_object {
  const struct uw_table *table;
  uw_u64 bias;
};

enum {
  UW_OK = 0,
  UW_END = 1,         /* outermost frame: return address rule undefined */
  UW_ENOCFI = -1,     /* no CFI covers pc and it is no signal trampoline */
  UW_EBADCFI = -2,    /* malformed or unsupported CFI */
  UW_EUNDEF = -3,     /* a rule needs a register whose value is unknown */
  UW_EREAD = -4,      /* a memory read failed */
  UW_ELIMIT = -5,     /* a bound was hit (ops, state stack, expression) */
  UW_EBADTABLE = -6,  /* table blob malformed */
  UW_ENOPROGRESS = -7 /* caller frame equals this one (would loop) */
};

/* Everything big a step needs: the CFA program's register rows and its
 * remembered-state stack, the expression stack, the caller's registers
 * under construction, and what the workspace learnt about the tables it
 * walked (parsed CIEs, the rows found for the last pcs). Kept by the
 * caller so that a step's own stack use stays small: in the kernel one per
 * CPU, in the probe context. Opaque; only the size is public (the same for
 * both architectures). One walk at a time: a workspace is not reentrant. */
#define UW_WORKSPACE_SIZE 10240
struct uw_workspace {
  uw_u64 opaque[UW_WORKSPACE_SIZE / 8];
};

/* Forgets what the workspace learnt about tables (a few dozen stores).
 * Call it before the first uw_step_ws(), and again whenever a table it may
 * have seen is changed, freed or replaced by another at the same address:
 * between calls, the walks' tables must stay valid and unchanged. Walks
 * over the same tables may share what they learnt (the kernel's do: its
 * tables live as long as the module). */
void uw_workspace_init(struct uw_workspace *ws);

/* Computes the caller's registers from r, in place. obj may be null or have
 * a null table (then only signal trampolines can be unwound). On failure r
 * is left unchanged. Stack use: under 384 bytes on the deepest path (gcc
 * -O2, x86_64 and i386), plus whatever mem->read uses. */
int uw_step_ws(const struct uw_object *obj, struct uw_regs *r,
               const struct uw_memory *mem, struct uw_workspace *ws);

#ifndef __KERNEL__
/* uw_step_ws() with a fresh workspace on the stack (about 10 KB): for host
 * tools and tests. Not built into kernel modules, whose stacks are small. */
int uw_step(const struct uw_object *obj, struct uw_regs *r,
            const struct uw_memory *mem);
#endif

/* A short text for a UW_* code, for diagnostics. */
const char *uw_strerror(int code);

#endif
