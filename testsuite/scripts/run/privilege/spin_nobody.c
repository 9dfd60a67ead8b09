/* A child that becomes nobody (uid 65534) and keeps a CPU busy for two
 * seconds, so that timer probes interrupt a process that is not the
 * user's. */
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(void) {
  int status = 0;
  pid_t child = fork();
  if (child == 0) {
    if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
      return 2;
    time_t end = time(NULL) + 2;
    while (time(NULL) < end)
      ;
    return 0;
  }
  waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
