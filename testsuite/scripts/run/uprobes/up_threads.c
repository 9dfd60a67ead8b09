/* Four threads call item() 1000 times each, at the same time. */
#include <pthread.h>

__attribute__((noipa)) long item(long x)
{
	asm volatile("");
	return x + 1;
}

static void *worker(void *arg)
{
	long i, t = 0;
	for (i = 0; i < 1000; i++)
		t += item(i);
	return (void *)t;
}

int main(void)
{
	pthread_t t[4];
	int i;

	for (i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	return 0;
}
