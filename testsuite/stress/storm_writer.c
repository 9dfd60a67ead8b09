/* storm_writer SECONDS: calls getppid() as fast as it can for SECONDS, then
 * prints how many calls it made. The storm and transport cases probe
 * getppid, which nothing else in the guest calls, so the probe's hits plus
 * the skipped probes must add up to exactly these counts. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) static long call(void) { return getppid(); }

int main(int argc, char **argv) {
  int seconds = argc > 1 ? atoi(argv[1]) : 1;
  time_t end = time(NULL) + seconds;
  unsigned long n = 0;
  while (time(NULL) < end)
    for (int i = 0; i < 100; i++, n++)
      call();
  printf("calls %lu\n", n);
  return 0;
}
