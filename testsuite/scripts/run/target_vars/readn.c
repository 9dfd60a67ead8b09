/* Reads N bytes (argv[1]) of its own executable in one read(2), so that
 * kernel probes see a vfs_read of a known file and size; with a directory
 * (argv[2]) it then tries to read N + 1 bytes of that too (-EISDIR). Silent when it
 * read them all (its output would race the probes'). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
  static char buf[65536];
  size_t n = argc > 1 ? strtoul(argv[1], NULL, 0) : 100;
  int fd = open(argv[0], O_RDONLY);
  if (fd < 0 || n > sizeof(buf)) {
    perror("readn");
    return 1;
  }
  ssize_t got = read(fd, buf, n);
  if (got != (ssize_t)n) {
    fprintf(stderr, "readn: read %zd of %zu\n", got, n);
    return 1;
  }
  if (argc > 2) {
    int dir = open(argv[2], O_RDONLY);
    if (dir < 0 || read(dir, buf, n + 1) >= 0) {
      fprintf(stderr, "readn: %s read as a file\n", argv[2]);
      return 1;
    }
  }
  return 0;
}
