/* line_tally PREFIX FILE: reads standard input to its end; lines that begin
 * with PREFIX are only counted, every other line is written to FILE as it
 * comes (flushed, so a driver can wait for it), and at the end the line
 * "tally N". The storm's millions of backtrace and error lines
 * would fill the guest's tmpfs: it keeps their counts instead. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: line_tally PREFIX FILE\n");
    return 2;
  }
  const char *prefix = argv[1];
  size_t prefix_len = strlen(prefix);
  FILE *kept = fopen(argv[2], "w");
  if (!kept) {
    perror(argv[2]);
    return 2;
  }
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  unsigned long long counted = 0;
  while ((len = getline(&line, &cap, stdin)) >= 0) {
    if ((size_t)len >= prefix_len && memcmp(line, prefix, prefix_len) == 0) {
      counted++;
      continue;
    }
    fwrite(line, 1, (size_t)len, kept);
    fflush(kept);
  }
  fprintf(kept, "tally %llu\n", counted);
  return fclose(kept) == 0 ? 0 : 1;
}
