/* What the test programs that talk to themselves over 127.0.0.1 share:
 * the address of a port there, and bringing the loopback device up (the
 * guests leave it down). Programs include it with `-I../include` in their
 * `// program:` line. */
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/ioctl.h>

static inline struct sockaddr_in loopback(int port)
{
	struct sockaddr_in a;
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_port = htons(port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

/* Sets IFF_UP on lo through socket `s`: 0, or -1. */
static inline int loopback_up(int s)
{
	struct ifreq ifr;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(s, SIOCGIFFLAGS, &ifr))
		return -1;
	ifr.ifr_flags |= IFF_UP;
	return ioctl(s, SIOCSIFFLAGS, &ifr) ? -1 : 0;
}
