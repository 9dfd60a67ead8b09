/* For compatible_deprecated.stp: hands the probe an old mmap(2) argument
 * block (six 32-bit fields) and a pointer to nothing, then preads its own
 * executable at offset 4096 (vfs_read's position then points at 4096). */
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

struct old_mmap_args {
	uint32_t addr, len, prot, flags;
	int32_t fd;
	uint32_t offset;
};

__attribute__((noinline)) void take(const void *args) { __asm__ volatile("" ::"r"(args) : "memory"); }

int main(int argc, char **argv)
{
	/* PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, fd -1 */
	struct old_mmap_args a = { 0x10000, 8192, 3, 0x22, -1, 0 };
	char buf[16];
	int fd = open(argv[0], O_RDONLY);

	take(&a);
	take((const void *)16); /* unmapped: the block cannot be read */
	if (fd < 0 || pread(fd, buf, sizeof(buf), 4096) != sizeof(buf))
		return 1;
	close(fd);
	return 0;
}
