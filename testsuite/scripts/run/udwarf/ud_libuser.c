/* Calls libud.so's lib_sum() twice, then forks a child that calls it
 * once more; each call's first pair, count and result go to the file
 * argv[1], the child's after the parent's. */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

struct pair {
	long a;
	short b;
	char tag[8];
};

long lib_sum(const struct pair *p, int n);

static void call(FILE *out, const struct pair *p, int n, const char *who)
{
	long s = lib_sum(p, n);

	fprintf(out, "lib_sum(p[0]={%ld,%d,%s}, n=%d) -> %ld in %s\n", p[0].a, p[0].b, p[0].tag,
		n, s, who);
	fflush(out);
}

int main(int argc, char **argv)
{
	struct pair ps[3] = { { 7, -2, "first" }, { 100, 3, "second" }, { 5, 5, "third" } };
	FILE *out = fopen(argc > 1 ? argv[1] : "/dev/null", "a");
	pid_t child;

	if (!out)
		return 1;
	call(out, ps, 2, "the program");
	call(out, ps + 1, 2, "the program");
	fflush(out);
	child = fork();
	if (child == 0) {
		call(out, ps + 2, 1, "its child");
		_exit(0);
	}
	waitpid(child, NULL, 0);
	return 0;
}
