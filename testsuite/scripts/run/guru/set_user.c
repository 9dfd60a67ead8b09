/* Hands a buffer to write(-1, BUF, 16), which fails harmlessly; the probe
 * rewrites the buffer, and this prints what the buffer holds afterwards. */
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	union {
		char text[16];
		int number;
	} buf;
	strcpy(buf.text, "unchanged");
	syscall(SYS_write, -1, buf.text, sizeof(buf.text));
	printf("text %s\n", buf.text);
	syscall(SYS_write, -1, buf.text, 4);
	printf("number %d\n", buf.number);
	return 0;
}
