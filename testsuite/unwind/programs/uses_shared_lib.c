/* Stack at umask: main -> call_library -> libuwshared's shared_outer ->
 * shared_inner -> umask (libc). */
#include <stdio.h>

int shared_outer(int x);

__attribute__((noinline)) static int call_library(int x) {
  return shared_outer(x) + 1;
}

int main(void) {
  printf("%d\n", call_library(022));
  return 0;
}
