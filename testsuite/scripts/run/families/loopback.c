/* Reads the loopback device's MTU (an ioctl the device layer answers),
 * brings it up (the guests leave it down), sends a
 * 5-byte UDP datagram to itself on 127.0.0.1:4242 and reads it back, then
 * sends 7 bytes over a TCP connection to itself on port 4243. */
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "loopback.h"


int main(void)
{
	char buf[16];
	struct ifreq ifr;
	struct sockaddr_in u = loopback(4242), t = loopback(4243);
	int s = socket(AF_INET, SOCK_DGRAM, 0), l, c, a;

	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(s, SIOCGIFMTU, &ifr) || ioctl(s, SIOCGIFFLAGS, &ifr))
		return 1;
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(s, SIOCSIFFLAGS, &ifr))
		return 2;
	if (bind(s, (struct sockaddr *)&u, sizeof(u)) ||
	    sendto(s, "hello", 5, 0, (struct sockaddr *)&u, sizeof(u)) != 5 ||
	    recv(s, buf, sizeof(buf), 0) != 5)
		return 3;
	l = socket(AF_INET, SOCK_STREAM, 0);
	c = socket(AF_INET, SOCK_STREAM, 0);
	if (bind(l, (struct sockaddr *)&t, sizeof(t)) || listen(l, 1) ||
	    connect(c, (struct sockaddr *)&t, sizeof(t)))
		return 4;
	a = accept(l, NULL, NULL);
	if (a < 0 || send(c, "tcpdata", 7, 0) != 7 || recv(a, buf, 7, MSG_WAITALL) != 7)
		return 5;
	close(a);
	close(c);
	close(l);
	close(s);
	return 0;
}
