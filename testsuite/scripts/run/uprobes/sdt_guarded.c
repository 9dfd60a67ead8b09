/* A marker with a semaphore (sys/sdt.h's _SDT_HAS_SEMAPHORES form): the
 * program tests it and computes the marker's arguments only while a probe
 * is on it; the kernel counts the probes in it (uprobe_register_refctr). */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

__extension__ unsigned short up_guarded_semaphore __attribute__((unused))
	__attribute__((section(".probes")));

__attribute__((noipa)) void guarded(int i)
{
	if (__builtin_expect(up_guarded_semaphore, 0))
		STAP_PROBE1(up, guarded, i * 100);
}
