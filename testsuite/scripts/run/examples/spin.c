/* A CPU-bound program for examples/ustack_profile.stp: main -> work ->
 * inner, spinning about half a second. */
#include <time.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void inner(void) {
  for (int i = 0; i < 100000; i++)
    sink += i;
}

__attribute__((noinline)) static void work(void) {
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  do {
    inner();
    clock_gettime(CLOCK_MONOTONIC, &now);
  } while ((now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec) < 500000000L);
}

int main(void) {
  work();
  return 0;
}
