/* guest-mounts ROOT HOST < PLAN: applies a guest's mount plan (written by
 * the host's runner: translator/remote/guest_view.h) in one process. Each
 * line is a step, in order:
 *   bind PATH          HOST/PATH bound at ROOT/PATH
 *   overlay PATH       HOST/PATH's files, writable: a tmpfs upper layer in /rw
 *   link PATH TARGET   ROOT/PATH becomes a symlink to TARGET
 * A mount point that is missing (or not a directory) is made first; the
 * root is writable where that happens (the i686 guest's overlay).
 *
 * Why C and not the init's sh: a fork and exec cost milliseconds under TCG
 * and the i686 plan has some thirty steps (measured 0.5 s in sh).
 *
 * A step that fails is reported on stderr and the others still run; the
 * exit status is the number of failed steps (at most 100). Built static by
 * scripts/vm/mkinitrd for the guest's architecture. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *root, *host;
static int failed;

static void fail(const char *what, const char *path) {
	fprintf(stderr, "guest-mounts: %s %s: %s\n", what, path, strerror(errno));
	failed++;
}

/* mkdir -p */
static int make_dirs(char *path) {
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		int r = mkdir(path, 0755);
		*p = '/';
		if (r != 0 && errno != EEXIST)
			return -1;
	}
	return mkdir(path, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

/* Whatever is at `path` that is not a directory goes. */
static int clear(const char *path) {
	struct stat st;
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : -1;
	return S_ISDIR(st.st_mode) ? rmdir(path) : unlink(path);
}

static int mount_point(char *path) {
	struct stat st;
	if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return 0;
	if (clear(path) != 0)
		return -1;
	return make_dirs(path);
}

static int overlay(const char *lower, const char *at) {
	static int layers;
	char up[64], work[64], opts[8192];
	layers++;
	snprintf(up, sizeof up, "/rw/plan%d/up", layers);
	snprintf(work, sizeof work, "/rw/plan%d/work", layers);
	if (make_dirs(up) != 0 || make_dirs(work) != 0)
		return -1;
	if ((size_t)snprintf(opts, sizeof opts, "lowerdir=%s,upperdir=%s,workdir=%s", lower, up,
			     work) >= sizeof opts) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return mount("overlay", at, "overlay", 0, opts);
}

int main(int argc, char **argv) {
	if (argc != 3) {
		fprintf(stderr, "usage: guest-mounts ROOT HOST < PLAN\n");
		return 100;
	}
	root = argv[1];
	host = argv[2];
	char line[4096], kind[16], path[4096], target[4096];
	char at[8192], from[8192];
	while (fgets(line, sizeof line, stdin)) {
		target[0] = 0;
		if (sscanf(line, "%15s %4095s %4095s", kind, path, target) < 2 || path[0] != '/')
			continue;
		snprintf(at, sizeof at, "%s%s", root, path);
		snprintf(from, sizeof from, "%s%s", host, path);
		if (!strcmp(kind, "bind")) {
			if (mount_point(at) != 0 || mount(from, at, NULL, MS_BIND, NULL) != 0)
				fail("cannot bind", path);
		} else if (!strcmp(kind, "overlay")) {
			if (mount_point(at) != 0 || overlay(from, at) != 0)
				fail("cannot mount an overlay on", path);
		} else if (!strcmp(kind, "link")) {
			if (clear(at) != 0 || symlink(target, at) != 0)
				fail("cannot link", path);
		}
	}
	return failed > 100 ? 100 : failed;
}
