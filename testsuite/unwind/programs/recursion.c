/* Stack at umask: 80 frames of recursion. The call goes through a volatile
 * pointer so the compiler cannot turn the recursion into a loop. */
#include <stdio.h>
#include <sys/stat.h>

static int descend(int depth);
static int (*volatile next)(int) = descend;

__attribute__((noinline)) static int descend(int depth) {
  if (depth == 0)
    return (int)umask(022);
  return next(depth - 1) + depth;
}

int main(void) {
  printf("%d\n", next(80));
  return 0;
}
