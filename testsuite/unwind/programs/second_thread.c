/* Stack at getppid in a second thread: the walk ends at the thread's
 * outermost frame (clone), not in main. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

__attribute__((noinline)) static long work(int n) {
  return n + getppid();
}

__attribute__((noinline)) static void *worker(void *arg) {
  long r = work(*(int *)arg);
  __asm__ volatile("" ::: "memory"); /* keeps the call from being a tail call */
  return (void *)r;
}

int main(void) {
  pthread_t t;
  int n = 3;
  void *r;
  pthread_create(&t, NULL, worker, &n);
  pthread_join(t, &r);
  printf("%d\n", (long)r > 0);
  return 0;
}
