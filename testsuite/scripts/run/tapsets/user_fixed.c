/* Passes known bytes to write(-1, BYTES, 16): the call fails harmlessly
 * and the probe reads the bytes from this process's memory. */
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Written at run time, so its page is resident when the probe reads it
 * (the probe's reads never fault pages in). */
static unsigned char bytes[16];
static const unsigned char init[16] = {
	0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, /* high bits set */
	0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* a little-endian 1 */
};

int main(void)
{
	memcpy(bytes, init, sizeof(bytes));
	syscall(SYS_write, -1, bytes, sizeof(bytes));
	return 0;
}
