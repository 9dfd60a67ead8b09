/* A loopback NFSv4.2 server and client in the guest, without nfs-utils:
 * the kernel's nfsd is started through the nfsd filesystem, the export of
 * a fresh tmpfs is written into the sunrpc caches (what mountd would
 * answer), the client mounts it with mount(2)'s text options, and a file
 * is created, written, read back, renamed and removed, a name that does
 * not exist is looked up, a 3 MiB file is written (and committed) and
 * removed, and a directory is made and removed. Run
 * after `modprobe -a nfsd nfsv4`, under staprun -c. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define EXPORT "/run/stap-nfsd-export"
#define MNT "/run/stap-nfsd-mnt"
#define RECOVERY "/run/stap-nfsd-recovery"

static void put(const char *path, const char *text, int must)
{
	int fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		fprintf(stderr, "nfsd_traffic: %s <- %s: %s\n", path, text, strerror(errno));
		if (must)
			exit(1);
	}
	if (fd >= 0)
		close(fd);
}

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "nfsd_traffic: %s: %s\n", what, strerror(errno));
		exit(1);
	}
}

int main(void)
{
	char line[256];
	long expiry = time(NULL) + 3600;
	int fd;

	/* The guest has no network but loopback, which starts down. */
	struct ifreq ifr = { .ifr_name = "lo" };
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	check(s >= 0 && ioctl(s, SIOCGIFFLAGS, &ifr) == 0, "SIOCGIFFLAGS lo");
	ifr.ifr_flags |= IFF_UP;
	check(ioctl(s, SIOCSIFFLAGS, &ifr) == 0, "SIOCSIFFLAGS lo");
	close(s);

	mkdir(EXPORT, 0755);
	mkdir(RECOVERY, 0755);
	mkdir(MNT, 0755);
	check(mount("tmpfs", EXPORT, "tmpfs", 0, "size=8m") == 0, "mount tmpfs");
	if (mount("nfsd", "/proc/fs/nfsd", "nfsd", 0, NULL) != 0 && errno != EBUSY)
		check(0, "mount nfsd");

	/* NFSv4 only: no lockd, no rpcbind needed. */
	put("/proc/fs/nfsd/versions", "-3 +4 +4.1 +4.2\n", 1);
	/* A short grace period (new opens wait for its end), ended at once
	 * below where the kernel lets us; a recovery directory the server
	 * can track clients in. */
	put("/proc/fs/nfsd/nfsv4recoverydir", RECOVERY "\n", 0);
	put("/proc/fs/nfsd/nfsv4gracetime", "10\n", 0);
	put("/proc/fs/nfsd/nfsv4leasetime", "10\n", 0);
	put("/proc/fs/nfsd/portlist", "tcp 2049\n", 1);
	put("/proc/fs/nfsd/threads", "2\n", 1);
	put("/proc/fs/nfsd/v4_end_grace", "Y\n", 0);

	/* What mountd would answer: 127.0.0.1 is in domain "stapdom", whose
	 * fsid 0 (the NFSv4 root) is the tmpfs, exported read-write,
	 * no_root_squash, no_subtree_check, insecure, fsid=0. */
	snprintf(line, sizeof line, "nfsd 127.0.0.1 %ld stapdom\n", expiry);
	put("/proc/net/rpc/auth.unix.ip/channel", line, 1);
	snprintf(line, sizeof line, "stapdom 1 \\x00000000 %ld %s\n", expiry, EXPORT);
	put("/proc/net/rpc/nfsd.fh/channel", line, 1);
	snprintf(line, sizeof line, "stapdom %s %ld %d 0 0 0\n", EXPORT, expiry,
		 0x2000 /* FSID */ | 0x400 /* NOSUBTREECHECK */ | 0x2 /* INSECURE_PORT */);
	put("/proc/net/rpc/nfsd.export/channel", line, 1);

	check(mount("127.0.0.1:/", MNT, "nfs4", 0,
		    "vers=4.2,addr=127.0.0.1,clientaddr=127.0.0.1,soft,timeo=50,retrans=2") == 0,
	      "mount nfs4");
	fd = open(MNT "/stap-nfsd-file", O_CREAT | O_WRONLY, 0644);
	check(fd >= 0, "create");
	check(write(fd, "hello", 5) == 5, "write");
	check(fsync(fd) == 0, "fsync");
	check(close(fd) == 0, "close");
	/* Read it back from the server (O_DIRECT: not from the client's
	 * cache), rename it, look up a name that does not exist. */
	{
		static char buf[4096] __attribute__((aligned(4096)));
		struct stat st;
		fd = open(MNT "/stap-nfsd-file", O_RDONLY | O_DIRECT);
		check(fd >= 0, "open O_DIRECT");
		check(read(fd, buf, sizeof buf) == 5, "read");
		check(close(fd) == 0, "close");
		check(rename(MNT "/stap-nfsd-file", MNT "/stap-nfsd-file2") == 0, "rename");
		check(stat(MNT "/stap-nfsd-none", &st) != 0 && errno == ENOENT, "stat ENOENT");
	}
	/* More than one WRITE's worth (wsize is at most 1 MiB), so the
	 * client writes unstable and then COMMITs at fsync. */
	{
		static char big[1 << 20];
		int i;
		fd = open(MNT "/stap-nfsd-big", O_CREAT | O_WRONLY, 0644);
		check(fd >= 0, "create big");
		for (i = 0; i < 3; i++)
			check(write(fd, big, sizeof big) == sizeof big, "write big");
		check(fsync(fd) == 0, "fsync big");
		check(close(fd) == 0, "close big");
		check(unlink(MNT "/stap-nfsd-big") == 0, "unlink big");
	}
	check(mkdir(MNT "/stap-nfsd-dir", 0755) == 0, "mkdir");
	check(rmdir(MNT "/stap-nfsd-dir") == 0, "rmdir");
	check(unlink(MNT "/stap-nfsd-file2") == 0, "unlink");
	check(umount(MNT) == 0, "umount");

	put("/proc/fs/nfsd/threads", "0\n", 0);
	umount(EXPORT);
	printf("nfsd_traffic done\n");
	return 0;
}
