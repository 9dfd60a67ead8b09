/* hostile READS: calls poke(s) and write(-1, s, 6) READS times each, so the
 * probes of hostile.stp read memory at every address they are given. */
#include <stdlib.h>
#include <unistd.h>

__attribute__((noinline)) int poke(const char *s) {
  __asm__ volatile("" : : "r"(s) : "memory");
  return s[0];
}

int main(int argc, char **argv) {
  static const char text[] = "hello";
  int n = argc > 1 ? atoi(argv[1]) : 10, sum = 0;
  /* Fault the string's page in first: the probes read without faulting,
   * and a page never touched is not mapped yet (a run-time error). The
   * read must really load from memory: `text[0]` of a constant array is
   * folded to 'h' by the compiler, which is why the first poke() once
   * failed its user_string() (docs/reliability.md). */
  (void)*(volatile const char *)text;
  for (int i = 0; i < n; i++) {
    sum += poke(text);
    if (write(-1, text, 6) != -1)
      return 2;
  }
  return sum == 'h' * n ? 0 : 1;
}
