/* procfs("NAME").read / .write: what generated code fills (STP_KIND_PROCFS);
 * procfs.c makes the files in /proc/systemtap/MODULE. */
#ifndef STP_PROCFS_BUFSIZE
#define STP_PROCFS_BUFSIZE MAXSTRINGLEN /* a read probe's $value, by default */
#endif

struct stp_procfs_probe {
	const struct stp_probe *probe;
	const char *path;  /* the file's name in /proc/systemtap/MODULE */
	bool write;        /* runs when the file is written, else when read */
	u16 umask;         /* taken from 0444 (read), 0222 (write) or both */
	u32 maxsize;       /* a read probe's buffer, NUL included */
};

/* A procfs probe's $value (the context's entry_data while it runs):
 * what was written, or what the read will return. tapsets/procfs.stp
 * reads and assigns it. */
struct stp_procfs_value {
	char *buf;
	size_t size; /* bytes of buf, the NUL included */
	size_t len;
};
