/* Stacks a backtrace must survive: a system call made with the stack
 * pointer at an unmapped page, then one made with it in a buffer of
 * garbage that looks like return addresses into this program. */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

static uintptr_t garbage[4096];

/* getppid with the stack pointer at sp, made by hand: no libc frame */
__attribute__((noinline)) static void getppid_at(uintptr_t sp) {
#if defined(__x86_64__)
  __asm__ volatile("mov %%rsp, %%r12\n\t"
                   "mov %0, %%rsp\n\t"
                   "mov $110, %%eax\n\t" /* __NR_getppid */
                   "syscall\n\t"
                   "mov %%r12, %%rsp"
                   :
                   : "r"(sp)
                   : "rax", "rcx", "r11", "r12", "memory");
#else
  __asm__ volatile("mov %%esp, %%esi\n\t"
                   "mov %0, %%esp\n\t"
                   "mov $64, %%eax\n\t" /* __NR_getppid */
                   "int $0x80\n\t"
                   "mov %%esi, %%esp"
                   :
                   : "r"(sp)
                   : "eax", "esi", "memory");
#endif
}

int main(void) {
  getppid_at(0x10);
  for (size_t i = 0; i < sizeof garbage / sizeof garbage[0]; i++)
    garbage[i] = (uintptr_t)&getppid_at + (i * 7919) % 200;
  getppid_at((uintptr_t)&garbage[2048]);
  return 0;
}
