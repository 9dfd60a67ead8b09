/* Reads 123 bytes of /etc/passwd from a position that is its inode number
 * modulo 64 (so a probe can check `ino` against the position), writes 77
 * bytes to /dev/null, then reads from the write-only /dev/null (EBADF). */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void)
{
	char buf[123];
	struct stat st;
	int fd = open("/etc/passwd", O_RDONLY);
	int null = open("/dev/null", O_WRONLY);

	if (fd < 0 || null < 0 || fstat(fd, &st))
		return 1;
	lseek(fd, st.st_ino % 64, SEEK_SET);
	if (read(fd, buf, sizeof(buf)) != sizeof(buf))
		return 2;
	if (write(null, buf, 77) != 77)
		return 3;
	if (read(null, buf, 5) != -1)
		return 4;
	return 0;
}
