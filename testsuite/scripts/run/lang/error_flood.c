/* error_flood N: calls getppid() N times as fast as it can. */
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1;
  for (int i = 0; i < n; i++)
    getppid();
  return 0;
}
