/* Built on the host under /tmp by the script tests (// program:), run in the
 * guests with -c at the same path: prints the path the guest's kernel ran it
 * from, and that /tmp and its own directory can be written there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int write_and_read_back(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f || fputs("x", f) < 0 || fclose(f) != 0)
    return 0;
  char c = 0;
  f = fopen(path, "r");
  int ok = f && fread(&c, 1, 1, f) == 1 && c == 'x';
  if (f)
    fclose(f);
  return ok && unlink(path) == 0;
}

int main(int argc, char **argv) {
  (void)argc;
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = 0;
  printf("exe %s\n", exe);
  char tmp[] = "/tmp/target_in_tmp.XXXXXX";
  int fd = mkstemp(tmp);
  if (fd >= 0)
    close(fd);
  printf("/tmp writable: %s\n", fd >= 0 && write_and_read_back(tmp) ? "yes" : "no");
  char beside[4200];
  snprintf(beside, sizeof beside, "%s.out", argv[0]);
  printf("own directory writable: %s\n", write_and_read_back(beside) ? "yes" : "no");
  return 0;
}
