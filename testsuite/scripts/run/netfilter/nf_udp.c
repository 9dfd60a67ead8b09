/* Brings the loopback device up (the guests leave it down) and sends
 * itself UDP datagrams of 5 bytes from 127.0.0.1:4245: three to port 4244,
 * which it reads back, then one to 4246 and one to 4247. It reads 4247's,
 * then waits up to a second for 4246's, and says which arrived: the guru
 * test drops 4246's at NF_INET_LOCAL_IN. */
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "loopback.h"


/* A UDP socket bound to 127.0.0.1:port that waits at most a second. */
static int bound(int port)
{
	struct sockaddr_in a = loopback(port);
	struct timeval tv = {1, 0};
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)) ||
	    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		return -1;
	return s;
}

static int send_to(int s, int port)
{
	struct sockaddr_in a = loopback(port);
	return sendto(s, "hello", 5, 0, (struct sockaddr *)&a, sizeof(a)) == 5 ? 0 : -1;
}

int main(void)
{
	char buf[16];
	int tx = bound(4245), r4244 = bound(4244), r4246 = bound(4246), r4247 = bound(4247), i;

	if (tx < 0 || r4244 < 0 || r4246 < 0 || r4247 < 0)
		return 1;
	if (loopback_up(tx))
		return 2;
	for (i = 0; i < 3; i++)
		if (send_to(tx, 4244) || recv(r4244, buf, sizeof(buf), 0) != 5)
			return 4;
	if (send_to(tx, 4246) || send_to(tx, 4247))
		return 5;
	printf("4247 %s\n", recv(r4247, buf, sizeof(buf), 0) == 5 ? "received" : "nothing");
	printf("4246 %s\n", recv(r4246, buf, sizeof(buf), 0) == 5 ? "received" : "nothing");
	return 0;
}
