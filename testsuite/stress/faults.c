/* The faults case's target, in three modes:
 *   faults loop N       calls hot() N times a millisecond apart (a -c
 *                       target for staprun to be killed under)
 *   faults race MS      four threads call hot() without pause; the main
 *                       thread exits the process after MS ms, so threads
 *                       die in the middle of their probes
 *   faults block FIFO   wait_here() blocks reading a byte from FIFO, then
 *                       returns it + 1; prints "returned N" and exits 0 if
 *                       it came back right (a uretprobe is pending on
 *                       wait_here while the module goes away) */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

volatile long counter;

__attribute__((noinline)) long hot(long x) {
  counter += x;
  return counter;
}

__attribute__((noinline)) int wait_here(const char *fifo) {
  unsigned char c = 0;
  int fd = open(fifo, O_RDONLY);
  if (fd < 0 || read(fd, &c, 1) != 1)
    return -1;
  close(fd);
  return c + 1;
}

static void *spin(void *arg) {
  (void)arg;
  for (;;)
    hot(1);
  return NULL;
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  if (!strcmp(argv[1], "loop")) {
    struct timespec ms = {0, 1000000};
    for (long i = 0, n = atol(argv[2]); i < n; i++) {
      hot(i);
      nanosleep(&ms, NULL);
    }
    return 0;
  }
  if (!strcmp(argv[1], "race")) {
    pthread_t t;
    for (int i = 0; i < 4; i++)
      pthread_create(&t, NULL, spin, NULL);
    usleep(atoi(argv[2]) * 1000);
    exit(0);
  }
  if (!strcmp(argv[1], "block")) {
    int r = wait_here(argv[2]);
    printf("returned %d\n", r);
    return r == 'A' + 1 ? 0 : 1;
  }
  return 2;
}
