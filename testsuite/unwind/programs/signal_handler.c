/* Stack at getppid inside a SIGUSR1 handler: the walk must cross the
 * signal frame (libc's __restore_rt or the vDSO's sigreturn) back into the
 * code the signal interrupted. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile int handled;

__attribute__((noinline)) static void in_handler(void) {
  getppid();
  __asm__ volatile("" ::: "memory"); /* keeps the call from being a tail call */
}

static void handler(int sig) {
  in_handler();
  handled = sig;
}

__attribute__((noinline)) static void send_signal(void) {
  kill(getpid(), SIGUSR1);
  __asm__ volatile("" ::: "memory"); /* keeps the call from being a tail call */
}

int main(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sigaction(SIGUSR1, &sa, NULL);
  send_signal();
  printf("handled %d\n", handled);
  return 0;
}
