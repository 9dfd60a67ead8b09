/* Listens on TCP port 4262 (IPv4) and 4263 (IPv6), then exits: the
 * sockets the socket tapset test looks at in inet_listen(). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void)
{
	struct sockaddr_in a4;
	struct sockaddr_in6 a6;
	int s4 = socket(AF_INET, SOCK_STREAM, 0), s6 = socket(AF_INET6, SOCK_STREAM, 0);

	int one = 1;

	/* Ports no other test of the guest boot uses: a connection of
	 * another test can stay in TIME_WAIT, and SO_REUSEADDR binds past
	 * that only if that socket had it too. */
	setsockopt(s4, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	setsockopt(s6, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&a4, 0, sizeof(a4));
	a4.sin_family = AF_INET;
	a4.sin_port = htons(4262);
	memset(&a6, 0, sizeof(a6));
	a6.sin6_family = AF_INET6;
	a6.sin6_port = htons(4263);
	if (bind(s4, (struct sockaddr *)&a4, sizeof(a4)) || listen(s4, 1) ||
	    bind(s6, (struct sockaddr *)&a6, sizeof(a6)) || listen(s6, 1)) {
		perror("listen_sockets");
		return 1;
	}
	close(s4);
	close(s6);
	return 0;
}
