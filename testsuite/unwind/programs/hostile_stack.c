/* A program that wrecks its own stack, then makes a system call (getppid)
 * and exits without returning: the hostile-stack test of the accuracy
 * suite. Whatever a kernel-side unwinder finds there, it must end in
 * bounded time, print no frame the stack does not prove (its frames are a
 * prefix of gdb's), and never oops.
 *
 *   hostile_stack MODE
 *     zero      the return addresses above smash() are 0
 *     self      they all point back into smash() (a cycle of identical pcs)
 *     kernel    they point into the kernel half of the address space
 *     unmapped  they point at an unmapped user page
 *     random    pseudo-random words (pcs and saved registers alike)
 *     badsp     the stack pointer itself is unmapped at the system call
 *               (raw syscall instruction, no libc frame above it)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define WORDS 256 /* the words above the buffer that get overwritten */

static uintptr_t pattern(const char *mode, unsigned i) {
  static uint32_t seed = 0x2545f491u;
  if (!strcmp(mode, "zero"))
    return 0;
  if (!strcmp(mode, "self"))
    return (uintptr_t)&pattern + 16;
  if (!strcmp(mode, "kernel"))
    return (uintptr_t)(sizeof(void *) == 8 ? 0xffffffff81000000ull : 0xc1000000u) + i * 8;
  if (!strcmp(mode, "unmapped"))
    return (uintptr_t)0x10000 + i * 8; /* below mmap_min_addr: never mapped */
  seed = seed * 1103515245u + 12345u;
  return ((uintptr_t)seed << 16) ^ (uintptr_t)(seed >> 7) ^ ((uintptr_t)i * 0x9e3779b9u);
}

/* Never returns: its own return address and the frames of main and libc's
 * start code above it are overwritten first. */
__attribute__((noinline, noreturn)) static void smash(const char *mode) {
  volatile uintptr_t buf[4];
  volatile uintptr_t *p = buf;
  __asm__("" : "+r"(p)); /* the compiler no longer knows p's bounds */
  for (unsigned i = 0; i < WORDS; i++)
    p[i] = pattern(mode, i);
  syscall(SYS_getppid);
  syscall(SYS_exit_group, 0);
  __builtin_unreachable();
}

/* The stack pointer points at an unmapped page when the system call
 * instruction runs; nothing can be read above the first frame. */
__attribute__((noinline, noreturn)) static void bad_sp(void) {
#if defined(__x86_64__)
  __asm__ volatile("mov $0x10000, %%rsp\n\t"
                   "mov %[ppid], %%eax\n\t"
                   "syscall\n\t"
                   "mov %[exit], %%eax\n\t"
                   "xor %%edi, %%edi\n\t"
                   "syscall\n\t" ::[ppid] "i"(SYS_getppid),
                   [exit] "i"(SYS_exit_group)
                   : "memory");
#elif defined(__i386__)
  __asm__ volatile("mov $0x10000, %%esp\n\t"
                   "mov %[ppid], %%eax\n\t"
                   "int $0x80\n\t"
                   "mov %[exit], %%eax\n\t"
                   "xor %%ebx, %%ebx\n\t"
                   "int $0x80\n\t" ::[ppid] "i"(SYS_getppid),
                   [exit] "i"(SYS_exit_group)
                   : "memory");
#endif
  __builtin_unreachable();
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "random";
  if (!strcmp(mode, "badsp"))
    bad_sp();
  smash(mode);
}
