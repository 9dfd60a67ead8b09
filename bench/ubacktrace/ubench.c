/* ubench N [FILE]: calls getppid() N times from 4 frames deep in the
 * program (main -> level1 -> level2 -> level3 -> getppid) and writes the
 * mean nanoseconds per call (fastest of 5 chunks of N/5) to FILE (default
 * stdout: a traced run's stdout is the module's output too). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define KEEP() __asm__ volatile("" ::: "memory")
static volatile long sink;

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

__attribute__((noinline)) static double level3(long n) {
  double t0 = now_ns();
  for (long i = 0; i < n; i++)
    sink += getppid();
  return (now_ns() - t0) / n;
}
__attribute__((noinline)) static double level2(long n) { double r = level3(n); KEEP(); return r; }
__attribute__((noinline)) static double level1(long n) { double r = level2(n); KEEP(); return r; }

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 10000;
  double best = 0;
  for (int chunk = 0; chunk < 5; chunk++) {
    double t = level1(n / 5);
    if (chunk == 0 || t < best)
      best = t;
  }
  FILE *out = argc > 2 ? fopen(argv[2], "w") : stdout;
  if (!out)
    return 1;
  fprintf(out, "%.1f\n", best);
  return fclose(out) != 0;
}
