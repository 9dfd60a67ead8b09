/* process.begin/end, process.thread.begin/end, process.syscall[.return],
 * with a path or PID filter (STP_KIND_PROC, process_events.c). */
enum stp_proc_kind {
	STP_PROC_BEGIN, STP_PROC_END, STP_PROC_THREAD_BEGIN, STP_PROC_THREAD_END,
	STP_PROC_SYSCALL, STP_PROC_SYSCALL_RETURN,
};
struct stp_proc_probe {
	const struct stp_probe *probe;
	enum stp_proc_kind kind;
	const char *path;      /* process("PATH"): its program, else NULL */
	int pid;               /* process(PID), else 0 */
	struct inode *inode;   /* path's, while the session runs */
};
