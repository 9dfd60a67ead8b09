/* Internal: CIE/FDE records and the register-rule row the CFA program
 * computes. Shared by the parser, the interpreter, the step and the table
 * builder (translator/symtab uses the parser to index FDEs). */
#ifndef UW_CFI_H
#define UW_CFI_H

#include "uw_read.h"
#include "unwind.h"

/* A CFI section as the unwinder sees it: bytes plus their link-time address. */
struct uw_cfi_section {
  const uw_u8 *data;
  uw_u32 len;
  uw_u64 vaddr;
  uw_u8 is_eh;     /* .eh_frame (1) or .debug_frame (0) */
  uw_u8 addr_size; /* 4 or 8 */
};

struct uw_cie {
  uw_u64 code_align;
  uw_s64 data_align;
  uw_u32 ra_reg;
  uw_u8 fde_enc;      /* 'R' augmentation, absptr by default */
  uw_u8 lsda_enc;
  uw_u8 has_z;        /* augmentation data present in FDEs */
  uw_u8 signal_frame; /* 'S' */
  uw_u8 addr_size;
  const uw_u8 *insns; /* initial instructions */
  uw_u32 insns_len;
};

struct uw_cie_slot;

struct uw_fde {
  struct uw_cie cie;
  uw_u64 pc_begin; /* link-time */
  uw_u64 pc_end;
  const uw_u8 *insns;
  uw_u32 insns_len;
  struct uw_cie_slot *slot; /* where a CIE cache keeps cie, or null */
};

/* Kinds of a record at some offset of a section. */
enum { UW_REC_FDE = 0, UW_REC_CIE = 1, UW_REC_TERMINATOR = 2 };

/* Reads the record header at off: its kind and the offset of the next
 * record. Returns 0 or UW_EBADCFI. */
int uw_cfi_record(const struct uw_cfi_section *s, uw_u32 off, int *kind,
                  uw_u32 *next);
/* Parses the FDE at off together with its CIE. Returns 0 or UW_EBADCFI. */
int uw_cfi_parse_fde(const struct uw_cfi_section *s, uw_u32 off,
                     struct uw_fde *fde);

struct uw_cie_cache;
/* The same with the caller's scratch cursor (the step's is in its
 * workspace, off the stack) and, if cache is not null, the CIE taken from
 * or put into it (fde->slot). */
int uw_cfi_parse_fde_in(const struct uw_cfi_section *s, uw_u32 off,
                        struct uw_fde *fde, struct uw_cursor *scratch,
                        struct uw_cie_cache *cache);

/* Register rules. Offsets are already multiplied by the data alignment.
 * Expressions are stored as an offset into the FDE's section and a length. */
enum {
  UW_RULE_UNDEF = 0,  /* value unknown */
  UW_RULE_SAME,       /* same value as in the callee */
  UW_RULE_OFFSET,     /* saved at CFA + off */
  UW_RULE_VAL_OFFSET, /* value is CFA + off */
  UW_RULE_REGISTER,   /* value is in register reg */
  UW_RULE_EXPR,       /* saved at the address the expression computes */
  UW_RULE_VAL_EXPR,   /* value is what the expression computes */
  UW_RULE_DEFAULT     /* not mentioned: arch decides (same or clobbered) */
};

struct uw_rule {
  uw_u8 kind;
  uw_u8 reg;    /* UW_RULE_REGISTER, and the CFA register */
  uw_u16 len;   /* expression length */
  uw_s32 value; /* offset, or expression offset in the section */
};

enum { UW_CFA_REG_OFFSET = 0, UW_CFA_EXPR = 1 };

struct uw_row {
  struct uw_rule cfa;     /* kind UW_CFA_REG_OFFSET or UW_CFA_EXPR */
  struct uw_rule reg[UW_NREGS];
};

/* Depth of DW_CFA_remember_state; deeper nesting is reported, not guessed. */
#define UW_STATE_STACK 4
/* Most CFA instructions one FDE+CIE program may execute. */
#define UW_MAX_CFA_OPS 4096

/* A per-walk cache of parsed CIEs: a stack walk meets the same few CIEs
 * (two or three per object) again and again. A slot holds the parsed CIE
 * and, when the CIE's program does not depend on the FDE (no location
 * operations, no remembered state left), the row it leaves, so that
 * neither is computed twice in a walk. Slots are keyed by the CIE's
 * address: tables must not change during a walk. */
#define UW_CIE_CACHE 8
struct uw_cie_slot {
  const uw_u8 *record; /* the CIE's first byte; null: free */
  struct uw_cie cie;
  struct uw_row initial; /* when has_initial: the row after the program */
  uw_u16 ops;            /* instructions the program took */
  uw_u8 is_eh;
  uw_u8 addr_size;
  uw_u8 has_initial;
  uw_u8 has_expr; /* initial has an expression rule */
};
struct uw_cie_cache {
  struct uw_cie_slot slot[UW_CIE_CACHE];
  unsigned next; /* the slot to reuse next (round robin) */
};
void uw_cie_cache_clear(struct uw_cie_cache *cache);

/* The rows found for pcs, kept across walks: a sampled or probed program
 * unwinds the same few return addresses again and again, and a row is a
 * function of the table and the pc alone. A hit skips the FDE search, its
 * parse and both CFA programs. Direct-mapped on the pc; keyed by the table
 * (its address: tables must not change while a workspace remembers them,
 * uw_workspace_init() forgets) and the link-time lookup address. */
#define UW_ROW_CACHE 32
struct uw_row_slot {
  const struct uw_table *table; /* null: free */
  uw_u64 pc;                    /* the lookup address, link-time */
  struct uw_row row;            /* the rules in effect at pc */
  uw_u32 ra_reg;                /* the CIE's return address column */
  uw_u8 debug_frame;            /* the FDE is in .debug_frame */
  uw_u8 signal_frame;           /* the CIE's 'S' */
  uw_u8 has_expr;               /* row has an expression rule */
};

/* The CFA program interpreter's state. Six rows make it big (about 900
 * bytes), so it lives in the caller's workspace, never on the stack. */
struct uw_cfa_machine {
  const struct uw_cfi_section *s;
  const struct uw_fde *fde;
  struct uw_row row;     /* the row being computed; the result */
  struct uw_row initial; /* after the CIE program, for DW_CFA_restore */
  struct uw_row stack[UW_STATE_STACK];
  struct uw_cursor c; /* over the program being run */
  unsigned depth;
  unsigned ops;
  uw_u8 moved;    /* a location operation ran */
  uw_u8 has_expr; /* an expression rule was set: the step evaluates them */
  uw_u64 loc;
  uw_u64 target;
};

/* Runs the CIE's and the FDE's programs up to pc (link-time) and leaves the
 * row in effect at pc in m->row. Returns 0, UW_EBADCFI or UW_ELIMIT. */
int uw_cfi_run_in(struct uw_cfa_machine *m, const struct uw_cfi_section *s,
                  const struct uw_fde *fde, uw_u64 pc);

#ifndef __KERNEL__
/* uw_cfi_run_in() with the machine on the stack, copying the row out: for
 * host tests and tools. */
int uw_cfi_run(const struct uw_cfi_section *s, const struct uw_fde *fde,
               uw_u64 pc, struct uw_row *row);
#endif

#endif
