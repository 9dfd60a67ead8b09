/* TCP connections to itself for tcpmib.stp and tcpipstat.stp: brings the
 * loopback device up (the guests leave it down), listens on 127.0.0.1:PORT
 * (argv[1], default 4270) and makes
 * three connections to it, each accepted and then aborted by the client
 * (SO_LINGER 0: a reset; the server reads until it sees the reset), then
 * one connection attempt to PORT + 1, where nothing listens
 * (refused). Exits 0 when everything went as planned. */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdlib.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "loopback.h"


int main(int argc, char **argv)
{
	int port = argc > 1 ? atoi(argv[1]) : 4270;
	struct sockaddr_in srv = loopback(port), none = loopback(port + 1);
	struct linger abort_on_close = { .l_onoff = 1, .l_linger = 0 };
	char buf[1];
	int s = socket(AF_INET, SOCK_DGRAM, 0), one = 1, l, c, a, i;

	if (loopback_up(s))
		return 1;
	close(s);

	l = socket(AF_INET, SOCK_STREAM, 0);
	if (setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(l, (struct sockaddr *)&srv, sizeof(srv)) || listen(l, 8))
		return 3;
	for (i = 0; i < 3; i++) {
		c = socket(AF_INET, SOCK_STREAM, 0);
		if (connect(c, (struct sockaddr *)&srv, sizeof(srv)))
			return 4;
		a = accept(l, NULL, NULL);
		if (a < 0 ||
		    setsockopt(c, SOL_SOCKET, SO_LINGER, &abort_on_close, sizeof(abort_on_close)))
			return 5;
		close(c);
		if (recv(a, buf, sizeof(buf), 0) != -1 || errno != ECONNRESET)
			return 6;
		close(a);
	}
	close(l);

	c = socket(AF_INET, SOCK_STREAM, 0);
	if (connect(c, (struct sockaddr *)&none, sizeof(none)) != -1 || errno != ECONNREFUSED)
		return 7;
	close(c);
	return 0;
}
