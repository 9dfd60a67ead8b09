/* Calls getppid() once per command-line word (argc times). */
#include <unistd.h>
int main(int argc, char **argv) {
  (void)argv;
  for (int i = 0; i < argc; i++)
    getppid();
  return 0;
}
