/* Installs a SIGUSR1 handler (SA_SIGINFO|SA_RESTART), blocks SIGUSR2,
 * then sends itself SIGUSR1 with kill(). */
#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t got;

static void on_usr1(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	got = sig;
}

int main(void)
{
	struct sigaction sa;
	sigset_t block;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_usr1;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR2);
	sigprocmask(SIG_BLOCK, &block, NULL);
	kill(getpid(), SIGUSR1);
	return got == SIGUSR1 ? 0 : 1;
}
