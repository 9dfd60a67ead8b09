/* A kprobe's and a kretprobe's hit, inline (probe_entry.h): the runtime's
 * shared callbacks (kprobes.c) pass the probe's handler pointer, the
 * callbacks generated per handler (translator/probes/kprobe.cpp) the
 * handler itself, which makes its call direct. */
#ifndef STP_KPROBE_ENTRY_H
#define STP_KPROBE_ENTRY_H

/* kprobes.c: a .callee probe's check of its callers; the breakpoint hits
 * of stp_kprobe_resume. */
bool stp_kprobe_called_from(const struct stp_kprobe *k, struct pt_regs *regs);
extern atomic_t stp_kprobe_int3_hits;

/* What the pre-handler tells the kernel: 0, "continue as usual", except
 * on one path where that would crash it.
 *
 * A kprobe on a function's first instruction is, on x86 kernels with
 * KPROBES_ON_FTRACE, ftrace-based: the site is ftrace's 5-byte fentry call
 * (or nop), the kernel keeps no copy of it to single-step
 * (kp->ainsn.insn is NULL), and ftrace's callback for the site
 * (kprobe_ftrace_handler) runs the pre-handler and then emulates the site
 * itself. But the breakpoint handler (kprobe_int3_handler) finds the same
 * kprobe by address when the CPU executes an int3 at the site that
 * ftrace's live patching (text_poke_bp, which arms and disarms the site)
 * does not claim as its own, as happens in the x86_64 and i686 guests
 * (docs/reliability.md, load/unload). Returning 0 there makes the kernel
 * "single-step" the site from address 0 with interrupts off: the NULL
 * instruction fetch at vfs_write's entry (ksys_write's return address on
 * the stack, EFLAGS without IF) and, on the next hit on that CPU,
 * "Unrecoverable kprobe detected" of issue 16.
 *
 * So on that path do what ftrace's callback would: resume after the site
 * (skipping the fentry call skips only the tracing hook) and return 1,
 * which tells the kernel that regs->ip is set and not to single-step.
 * The breakpoint path is told apart by its exception frame: orig_ax is -1
 * there, and 0 in the frame ftrace builds for its callbacks. */
static __always_inline int stp_kprobe_resume(struct kprobe *kp, struct pt_regs *regs)
{
#if defined(CONFIG_KPROBES_ON_FTRACE) && defined(CONFIG_X86)
	if (unlikely(kprobe_ftrace(kp) && (long)regs->orig_ax == -1)) {
		atomic_inc(&stp_kprobe_int3_hits);
		instruction_pointer_set(regs, (unsigned long)kp->addr + MCOUNT_INSN_SIZE);
		return 1;
	}
#endif
	return 0;
}

static __always_inline int stp_kprobe_pre_run(struct kprobe *kp, struct pt_regs *regs,
					      stp_handler_fn handler)
{
	struct stp_kprobe *k = container_of(kp, struct stp_kprobe, kp);
	if (likely(!k->n_callsites) || stp_kprobe_called_from(k, regs))
		stp_run_event_handler(k->probe, handler, regs, NULL, (unsigned long)kp->addr, false);
	return stp_kprobe_resume(kp, regs);
}

static __always_inline int stp_kretprobe_run(struct kretprobe_instance *ri, struct pt_regs *regs,
					     stp_handler_fn handler)
{
	struct stp_kprobe *k = container_of(get_kretprobe(ri), struct stp_kprobe, krp);
	stp_run_event_handler(k->probe, handler, regs, k->entry ? ri->data : NULL,
			      (unsigned long)k->krp.kp.addr, true);
	return 0;
}

#endif /* STP_KPROBE_ENTRY_H */
