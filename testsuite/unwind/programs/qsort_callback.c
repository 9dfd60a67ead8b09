/* Stack at getppid: a system call from qsort's comparison callback, so the
 * walk crosses libc's qsort frames back into main. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int calls;

__attribute__((noinline)) static int compare(const void *a, const void *b) {
  if (calls++ == 3)
    getppid();
  return *(const int *)a - *(const int *)b;
}

__attribute__((noinline)) static void sort_numbers(int *v, size_t n) {
  qsort(v, n, sizeof *v, compare);
  __asm__ volatile("" ::: "memory"); /* keeps the call from being a tail call */
}

int main(void) {
  int v[64];
  for (int i = 0; i < 64; i++)
    v[i] = (i * 37) % 64;
  sort_numbers(v, 64);
  printf("%d %d\n", v[0], v[63]);
  return 0;
}
