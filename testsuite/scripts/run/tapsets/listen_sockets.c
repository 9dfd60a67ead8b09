/* Listens on TCP port 4242 (IPv4) and 4243 (IPv6), then exits: the
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

	/* Other tests of the same guest boot talk TCP on these ports
	 * (families/loopback.c): their connections may still be in
	 * TIME_WAIT, which only SO_REUSEADDR binds past. */
	setsockopt(s4, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	setsockopt(s6, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	memset(&a4, 0, sizeof(a4));
	a4.sin_family = AF_INET;
	a4.sin_port = htons(4242);
	memset(&a6, 0, sizeof(a6));
	a6.sin6_family = AF_INET6;
	a6.sin6_port = htons(4243);
	if (bind(s4, (struct sockaddr *)&a4, sizeof(a4)) || listen(s4, 1) ||
	    bind(s6, (struct sockaddr *)&a6, sizeof(a6)) || listen(s6, 1)) {
		perror("listen_sockets");
		return 1;
	}
	close(s4);
	close(s6);
	return 0;
}
