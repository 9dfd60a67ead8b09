/* The programs of the backtrace tests, one per mode (argv[1]); every
 * function that must appear in a stack is noinline and ends with an empty
 * asm, so its call is no tail call, and does something of its own, so
 * that gcc does not fold two of them into one (-fipa-icf). Built -O2 -g
 * -fomit-frame-pointer.
 *   syscall   main -> outer -> inner -> getppid
 *   vdso      main -> measure -> clock_gettime(CLOCK_PROCESS_CPUTIME_ID),
 *             which the vdso passes on to the kernel (a system call made
 *             from inside the vdso), then getppid as in "syscall"
 *   signal    getppid in a SIGUSR1 handler: handler -> in_handler
 *   thread    getppid in a second thread: worker -> work
 *   recurse N descend N deep, then umask
 *   hot N     inner spins N million rounds (timer.profile), then getppid */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define KEEP() __asm__ volatile("" ::: "memory")

static volatile unsigned long sink;
static unsigned long rounds;

__attribute__((noinline)) static void inner(void) {
  unsigned long x = 1;
  for (unsigned long i = 0; i < rounds * 1000000UL; i++)
    x = x * 6364136223846793005UL + 1442695040888963407UL;
  sink = x;
  getppid();
  KEEP();
}

__attribute__((noinline)) static void outer(void) {
  inner();
  KEEP();
}

__attribute__((noinline)) static void measure(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  sink = ts.tv_nsec;
  KEEP();
}

__attribute__((noinline)) static void in_handler(void) {
  sink += getppid();
  KEEP();
}

static void handler(int sig) {
  in_handler();
  sink = sig;
}

__attribute__((noinline)) static void work(void) {
  sink ^= getppid();
  KEEP();
}

static void *worker(void *arg) {
  work();
  KEEP();
  return arg;
}

static int descend(int depth);
static int (*volatile next)(int) = descend;

__attribute__((noinline)) static int descend(int depth) {
  if (depth == 0)
    return (int)umask(022);
  return next(depth - 1) + depth;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "syscall";
  long n = argc > 2 ? atol(argv[2]) : 0;
  if (strcmp(mode, "vdso") == 0) {
    measure();
    outer();
  } else if (strcmp(mode, "signal") == 0) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sigaction(SIGUSR1, &sa, NULL);
    kill(getpid(), SIGUSR1);
  } else if (strcmp(mode, "thread") == 0) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, NULL);
  } else if (strcmp(mode, "recurse") == 0) {
    sink = next((int)n);
  } else {
    rounds = strcmp(mode, "hot") == 0 ? (unsigned long)n : 0;
    outer();
  }
  KEEP();
  return 0;
}
