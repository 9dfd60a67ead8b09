/* Passes UTF-16 and UTF-32 strings to write(-1, BUF, N): the call fails
 * harmlessly and the probe reads them from this process's memory.
 *   0: UTF-16 "hé€😀" (the last a surrogate pair)
 *  32: UTF-32 "hé€😀"
 *  64: UTF-16 with an unpaired high surrogate
 *  80: UTF-32 with a code point past U+10FFFF */
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Written at run time, so its page is resident when the probe reads it. */
static unsigned char buf[128];

int main(void)
{
	static const uint16_t u16[] = {0x68, 0xE9, 0x20AC, 0xD83D, 0xDE00, 0};
	static const uint32_t u32[] = {0x68, 0xE9, 0x20AC, 0x1F600, 0};
	static const uint16_t bad16[] = {0x41, 0xD800, 0x42, 0};
	static const uint32_t bad32[] = {0x41, 0x110000, 0};
	memcpy(buf, u16, sizeof(u16));
	memcpy(buf + 32, u32, sizeof(u32));
	memcpy(buf + 64, bad16, sizeof(bad16));
	memcpy(buf + 80, bad32, sizeof(bad32));
	syscall(SYS_write, -1, buf, sizeof(buf));
	return 0;
}
