/* Stack at getdents64: main -> list_dir -> count_entries -> readdir (libc). */
#include <dirent.h>
#include <stdio.h>

__attribute__((noinline)) static int count_entries(DIR *d) {
  int n = 0;
  while (readdir(d))
    n++;
  return n;
}

__attribute__((noinline)) static int list_dir(const char *path) {
  DIR *d = opendir(path);
  if (!d)
    return -1;
  int n = count_entries(d);
  closedir(d);
  return n;
}

int main(int argc, char **argv) {
  int n = list_dir(argc > 1 ? argv[1] : "/");
  printf("%d entries\n", n);
  return n < 0;
}
