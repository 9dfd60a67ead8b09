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
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The words above smash()'s buffer that get overwritten: its own frame,
 * main()'s and libc's start code's, not the end of the stack (a guest's
 * environment is small, so the stack's last page is close). */
#define WORDS 48

enum mode { ZERO, SELF, KERNEL, UNMAPPED, RANDOM };

/* Writes n words from p upwards. Its own frame and arguments are below p
 * (it is called from the frame that holds p), so it runs to its end. */
__attribute__((noinline)) static void fill(volatile uintptr_t *p, unsigned n, enum mode m) {
  uint32_t seed = 0x2545f491u;
  for (unsigned i = 0; i < n; i++) {
    uintptr_t v = 0;
    switch (m) {
    case ZERO:
      break;
    case SELF:
      v = (uintptr_t)&fill + 16;
      break;
    case KERNEL:
      v = (uintptr_t)(sizeof(void *) == 8 ? 0xffffffff81000000ull : 0xc1000000u) + i * 8;
      break;
    case UNMAPPED:
      v = (uintptr_t)0x10000 + i * 8; /* below mmap_min_addr: never mapped */
      break;
    case RANDOM:
      seed = seed * 1103515245u + 12345u;
      v = ((uintptr_t)seed << 16) ^ (uintptr_t)(seed >> 7) ^ ((uintptr_t)i * 0x9e3779b9u);
      break;
    }
    p[i] = v;
  }
}

/* Never returns: its own return address and the frames of main and libc's
 * start code above it are overwritten first. */
__attribute__((noinline, noreturn)) static void smash(enum mode m) {
  volatile uintptr_t buf[4];
  volatile uintptr_t *p = buf;
  __asm__("" : "+r"(p)); /* the compiler no longer knows p's bounds */
  fill(p, WORDS, m);
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
  static const char *const names[] = {"zero", "self", "kernel", "unmapped", "random"};
  const char *mode = argc > 1 ? argv[1] : "random";
  if (!strcmp(mode, "badsp"))
    bad_sp();
  for (unsigned m = 0; m < sizeof names / sizeof names[0]; m++)
    if (!strcmp(mode, names[m]))
      smash((enum mode)m);
  return 2;
}
