// void uw_bench_capture(uint64_t regs[17]): the caller's registers as they
// are right after this call returns, in DWARF order (rax rdx rcx rbx rsi rdi
// rbp rsp r8-r15 rip). The pc is a return address. Written in assembly so
// no compiler-chosen frame disturbs the values.
__asm__(R"(
	.text
	.globl uw_bench_capture
	.type uw_bench_capture, @function
uw_bench_capture:
	.cfi_startproc
	movq %rax, 0(%rdi)
	movq %rdx, 8(%rdi)
	movq %rcx, 16(%rdi)
	movq %rbx, 24(%rdi)
	movq %rsi, 32(%rdi)
	movq %rdi, 40(%rdi)
	movq %rbp, 48(%rdi)
	leaq 8(%rsp), %rax
	movq %rax, 56(%rdi)
	movq %r8, 64(%rdi)
	movq %r9, 72(%rdi)
	movq %r10, 80(%rdi)
	movq %r11, 88(%rdi)
	movq %r12, 96(%rdi)
	movq %r13, 104(%rdi)
	movq %r14, 112(%rdi)
	movq %r15, 120(%rdi)
	movq (%rsp), %rax
	movq %rax, 128(%rdi)
	ret
	.cfi_endproc
	.size uw_bench_capture, .-uw_bench_capture
)");
