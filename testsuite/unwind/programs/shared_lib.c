/* libuwshared: two frames of our own shared library between main and
 * umask. */
#include <sys/stat.h>

__attribute__((noinline)) int shared_inner(int x) {
  return (int)umask((mode_t)x) + x;
}

__attribute__((noinline)) int shared_outer(int x) {
  return shared_inner(x & 077) * 2;
}
