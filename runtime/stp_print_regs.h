/* print_regs() (tapsets/registers.stp): a register dump in the layout
 * SystemTap 4.8 prints, one per architecture.
 *
 * x86_64: the general registers come from the probe's pt_regs; the
 * segment selectors, the FS/GS/kernel-GS base MSRs and the control
 * registers are the current CPU's (what the handler runs with), as 4.8
 * reads them. i386: the general registers and DS/ES from pt_regs, the
 * control registers from the CPU.
 *
 * Probe context: a handful of register reads and formatted prints; the
 * MSR reads use the exception-safe form (0 if one faults). */
#ifndef STP_PRINT_REGS_H
#define STP_PRINT_REGS_H

#include <linux/ptrace.h>
#include <asm/msr.h>
#include <asm/special_insns.h>

#ifdef CONFIG_X86_64
static inline void stp_print_regs(struct stp_context *c, const struct pt_regs *r)
{
	u64 fs_base = 0, gs_base = 0, kgs_base = 0;
	unsigned short cs, ds, es, fs, gs;

	savesegment(cs, cs);
	savesegment(ds, ds);
	savesegment(es, es);
	savesegment(fs, fs);
	savesegment(gs, gs);
	if (rdmsrl_safe(MSR_FS_BASE, &fs_base))
		fs_base = 0;
	if (rdmsrl_safe(MSR_GS_BASE, &gs_base))
		gs_base = 0;
	if (rdmsrl_safe(MSR_KERNEL_GS_BASE, &kgs_base))
		kgs_base = 0;

	stp_printf(c, "RIP: %016lx\nRSP: %016lx  EFLAGS: %08lx\n", r->ip, r->sp, r->flags);
	stp_printf(c, "RAX: %016lx RBX: %016lx RCX: %016lx\n", r->ax, r->bx, r->cx);
	stp_printf(c, "RDX: %016lx RSI: %016lx RDI: %016lx\n", r->dx, r->si, r->di);
	stp_printf(c, "RBP: %016lx R08: %016lx R09: %016lx\n", r->bp, r->r8, r->r9);
	stp_printf(c, "R10: %016lx R11: %016lx R12: %016lx\n", r->r10, r->r11, r->r12);
	stp_printf(c, "R13: %016lx R14: %016lx R15: %016lx\n", r->r13, r->r14, r->r15);
	stp_printf(c, "FS:  %016llx(%04x) GS:%016llx(%04x) knlGS:%016llx\n",
		   (unsigned long long)fs_base, fs, (unsigned long long)gs_base, gs,
		   (unsigned long long)kgs_base);
	stp_printf(c, "CS:  %04x DS: %04x ES: %04x CR0: %016lx\n", cs, ds, es, read_cr0());
	stp_printf(c, "CR2: %016lx CR3: %016lx CR4: %016lx\n",
		   read_cr2(), __read_cr3(), __read_cr4());
}
#else /* i386 */
static inline void stp_print_regs(struct stp_context *c, const struct pt_regs *r)
{
	stp_printf(c, "EIP: %08lx\nESP: %08lx\n", r->ip, r->sp);
	stp_printf(c, "EAX: %08lx EBX: %08lx ECX: %08lx EDX: %08lx\n", r->ax, r->bx, r->cx, r->dx);
	stp_printf(c, "ESI: %08lx EDI: %08lx EBP: %08lx DS: %04x ES: %04x\n",
		   r->si, r->di, r->bp, 0xffffu & (unsigned)r->ds, 0xffffu & (unsigned)r->es);
	stp_printf(c, "CR0: %08lx CR2: %08lx CR3: %08lx CR4: %08lx\n",
		   read_cr0(), read_cr2(), __read_cr3(), __read_cr4());
}
#endif

#endif /* STP_PRINT_REGS_H */
