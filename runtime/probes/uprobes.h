#include <linux/uprobes.h>

/* process("PATH").function("f")[.return], .library(...), .mark(...): an
 * inode uprobe (STP_KIND_UPROBE, uprobes.c). */
enum stp_sdt_kind { STP_SDT_BAD, STP_SDT_CONST, STP_SDT_REG, STP_SDT_MEM };
/* One SDT marker operand, decoded by the translator from the note's
 * "size@operand" string (probes/sdt_notes.cpp). Registers are indexes into
 * struct pt_regs in longs, -1 for none. */
struct stp_sdt_arg {
	s8 size;        /* bytes; negative: signed; 0: the task's long */
	u8 kind;        /* enum stp_sdt_kind */
	s8 base, index; /* MEM: base and index registers; REG: base */
	u8 scale;       /* MEM: index scale */
	u8 reg_bytes;   /* REG: the sub-register's width (%al: 1, %eax: 4) */
	u8 shift;       /* REG: its bit offset (%ah: 8) */
	bool relocate;  /* MEM: disp is a link-time address (a symbol): add the load bias */
	s64 disp;       /* CONST: the value; MEM: the displacement */
};
/* The index of a struct pt_regs field in longs, for stp_sdt_arg. */
#define STP_PT_REG(field) ((s8)(offsetof(struct pt_regs, field) / sizeof(unsigned long)))
struct stp_uprobe {
	const struct stp_probe *probe;
	const char *path;           /* the file, as the target sees it */
	unsigned long offset;       /* file offset of the probed instruction */
	unsigned long sdt_sem;      /* file offset of the SDT semaphore, 0 = none */
	unsigned long link_pc;      /* link-time address of the probed instruction */
	bool is_return;
	const struct stp_probe *entry; /* a return probe's @entry part (uprobe_entry.c) */
	unsigned entry_data_size;      /* bytes of its values */
	bool optional;              /* `?`: a failed registration is not an error */
	int pid;                    /* process(PID): only that process; 0: the target's tree */
	const struct stp_sdt_arg *args; /* .mark: the marker's operands */
	unsigned nargs;
	const char *mark, *provider;    /* .mark: $$name, $$provider */
	struct uprobe_consumer uc;
	struct inode *inode;        /* while registered */
	bool registered;
	bool waiting;               /* the file did not exist: armed when mapped */
};
