/* Calls poke() 3 times as root, then in a child that became nobody
 * (uid 65534) 5 times. */
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) int poke(int x) {
  __asm__ volatile("" : : "r"(x) : "memory");
  return x;
}

int main(void) {
  int status = 0;
  for (int i = 0; i < 3; i++)
    poke(1);
  pid_t child = fork();
  if (child == 0) {
    if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
      return 2;
    for (int i = 0; i < 5; i++)
      poke(2);
    return 0;
  }
  waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
