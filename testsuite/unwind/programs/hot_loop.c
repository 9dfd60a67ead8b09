/* A 3-deep hot loop, for timer.profile samples: main -> outer -> middle ->
 * inner, which spins for argv[1] million rounds (default 1), then calls
 * getppid from inner, for the comparison at a system call. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long inner(unsigned long rounds) {
  unsigned long x = 1;
  for (unsigned long i = 0; i < rounds * 1000000UL; i++)
    x = x * 6364136223846793005UL + 1442695040888963407UL;
  sink = x;
  getppid();
  __asm__ volatile("" ::: "memory"); /* keeps the call from being a tail call */
  return x;
}

__attribute__((noinline)) static unsigned long middle(unsigned long rounds) {
  return inner(rounds) + 1;
}

__attribute__((noinline)) static unsigned long outer(unsigned long rounds) {
  return middle(rounds) ^ 2;
}

int main(int argc, char **argv) {
  unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 10) : 1;
  printf("%lu\n", outer(rounds) & 1);
  return 0;
}
