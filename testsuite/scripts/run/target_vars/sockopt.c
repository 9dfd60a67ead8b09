/* Sets IP_TTL to 77 on a UDP socket: ip_setsockopt(sk, level, optname,
 * sockptr_t optval, optlen) gets a 16-byte struct by value in two
 * registers, then optlen in the sixth. */
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>

int main(void) {
  int ttl = 77;
  int fd = socket(AF_INET, SOCK_DGRAM, 0);
  if (fd < 0 || setsockopt(fd, IPPROTO_IP, IP_TTL, &ttl, sizeof ttl) != 0) {
    perror("sockopt");
    return 1;
  }
  return 0;
}
