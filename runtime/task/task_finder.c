/* The task finder: keeps the VMA map (vma_map.c) current for every process.
 *
 * Kernel facilities (Debian's 6.1 kernels export these; see docs/runtime.md):
 *  - tracepoints found by name with for_each_kernel_tracepoint() and hooked
 *    with tracepoint_probe_register() (the register_trace_* helpers are not
 *    exported): sched_process_fork, sched_process_exec, sched_process_exit,
 *    and raw_syscalls' sys_exit for the system calls that change mappings;
 *  - task_work_add(): the tracepoints run with preemption disabled, so the
 *    rescan, which takes the mmap lock and allocates, runs as task work of
 *    the task itself, on its way back to user space: before the task runs
 *    another user instruction, its map is current.
 * Processes that exist at start are scanned once from the session start.
 *
 * Unloading waits for the work already queued (task_work_queue.h): at
 * most 5 s, then the module stays loaded until it has run. */

#include <linux/tracepoint.h>
#include "task_work_queue.h"
#include "tracepoint_hooks.h"
#include <linux/mman.h>
#include <linux/ipc.h>
#include <linux/shm.h>
#include <linux/compat.h>
#include <linux/zlib.h>
#include "uw_pack.h"
#include <asm/syscall.h>
#include <asm/unistd.h>

static STP_TASK_WORK_QUEUE(stp_tf_queue_of_rescans, "task finder");
static bool stp_tf_started;

/* ---- the work ---- */

/* Task work: current is the task, current->mm its map; sleepable. */
static void stp_tf_rescan(struct stp_task_work *w)
{
	stp_vma_rescan(current->mm, (const struct mm_struct *)w->arg);
#ifdef STP_FEATURE_UPROBE
	stp_uprobes_arm_late(); /* a file a uprobe waits for may be mapped now */
#endif
}

/* Tracepoint context: queue a rescan of tsk's mm, run by tsk itself.
 * `hint` (fork: the parent's mm) is compared only. */
static void stp_tf_queue(struct task_struct *tsk, const struct mm_struct *hint)
{
	stp_twq_add(&stp_tf_queue_of_rescans, tsk, stp_tf_rescan, (unsigned long)hint, false);
}

/* ---- which system calls change executable mappings ---- */

/* System call numbers of one ABI (-1: not in it). */
struct stp_tf_abi {
	long old_mmap, mmap, munmap, mprotect, pkey_mprotect, mremap, ipc, shmat, remap_file_pages;
};

#ifdef CONFIG_X86_64
static const struct stp_tf_abi stp_tf_abi_native = {
	-1, __NR_mmap, __NR_munmap, __NR_mprotect, __NR_pkey_mprotect, __NR_mremap,
	-1, __NR_shmat, __NR_remap_file_pages,
};
#ifdef CONFIG_IA32_EMULATION
static const struct stp_tf_abi stp_tf_abi_ia32 = {
	__NR_ia32_mmap, __NR_ia32_mmap2, __NR_ia32_munmap, __NR_ia32_mprotect,
	__NR_ia32_pkey_mprotect, __NR_ia32_mremap, __NR_ia32_ipc, __NR_ia32_shmat,
	__NR_ia32_remap_file_pages,
};
#endif
#else
static const struct stp_tf_abi stp_tf_abi_native = {
	__NR_mmap, __NR_mmap2, __NR_munmap, __NR_mprotect, __NR_pkey_mprotect, __NR_mremap,
	__NR_ipc, __NR_shmat, __NR_remap_file_pages,
};
#endif

/* Did the system call that is returning change (or may it have changed) an
 * executable file mapping? Calls that plainly did not (anonymous memory,
 * failures) are filtered out here, cheaply: the snapshot tells whether a
 * range touched a tracked mapping. */
static bool stp_tf_maps_changed(struct pt_regs *regs, long ret)
{
	const struct stp_tf_abi *abi = &stp_tf_abi_native;
	struct mm_struct *mm = current->mm;
	unsigned long a[6];
	long nr = syscall_get_nr(current, regs);
	bool failed = IS_ERR_VALUE((unsigned long)ret);

#ifdef CONFIG_X86_64
#ifdef CONFIG_IA32_EMULATION
	if (in_ia32_syscall())
		abi = &stp_tf_abi_ia32;
	else
#endif
		nr &= ~(long)__X32_SYSCALL_BIT;
#endif
	if (nr < 0 || failed)
		return false;
	if (nr != abi->mmap && nr != abi->munmap && nr != abi->mprotect &&
	    nr != abi->pkey_mprotect && nr != abi->mremap && nr != abi->old_mmap &&
	    nr != abi->ipc && nr != abi->shmat && nr != abi->remap_file_pages)
		return false;
	syscall_get_arguments(current, regs, a);
	if (nr == abi->mmap)
		return ((a[2] & PROT_EXEC) && !(a[3] & MAP_ANONYMOUS)) ||
		       stp_vma_overlaps(mm, (unsigned long)ret, a[1]);
	if (nr == abi->munmap)
		return stp_vma_overlaps(mm, a[0], a[1]);
	if (nr == abi->mprotect || nr == abi->pkey_mprotect)
		return (a[2] & PROT_EXEC) || stp_vma_overlaps(mm, a[0], a[1]);
	if (nr == abi->mremap)
		return stp_vma_overlaps(mm, a[0], a[1]) || stp_vma_overlaps(mm, (unsigned long)ret, a[2]);
	if (nr == abi->ipc)
		return (a[0] & 0xffff) == SHMAT;
	return true; /* old_mmap (arguments in memory), shmat, remap_file_pages */
}

/* ---- tracepoint probes (preemption disabled, may not sleep) ---- */

static void stp_tf_on_fork(void *data, struct task_struct *parent, struct task_struct *child)
{
	/* a thread, vfork() or CLONE_VM child shares the parent's map */
	if (child->mm && child->mm != parent->mm)
		stp_tf_queue(child, parent->mm);
}

static void stp_tf_on_exec(void *data, struct task_struct *p, pid_t old_pid,
			   struct linux_binprm *bprm)
{
	stp_tf_queue(p, NULL);
	stp_vma_gc_kick(); /* the old image's mm may be gone */
#ifdef STP_FEATURE_UPROBE
	stp_uentry_forget(p); /* calls of the old image never return */
#endif
}

static void stp_tf_on_exit(void *data, struct task_struct *p)
{
#ifdef STP_FEATURE_UPROBE
	stp_uentry_forget(p); /* calls in progress never return */
#endif
	if (!atomic_read(&p->signal->live)) /* the process's last thread */
		stp_vma_gc_kick();
}

static void stp_tf_on_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	if (current->mm && !(current->flags & PF_KTHREAD) && stp_tf_maps_changed(regs, ret))
		stp_tf_queue(current, NULL);
}

static struct stp_tp_hook stp_tf_tracepoints[] = {
	{"sched_process_fork", stp_tf_on_fork},
	{"sched_process_exec", stp_tf_on_exec},
	{"sched_process_exit", stp_tf_on_exit},
	{"sys_exit", stp_tf_on_sys_exit},
};

/* ---- session start and stop ---- */

/* Inflates src[0..src_len) into dst: true if it is exactly dst_len bytes
 * of zlib data. `ws` is a zlib_inflate_workspacesize() workspace. */
static bool stp_inflate_exact(void *dst, uw_u32 dst_len, const void *src, uw_u32 src_len, void *ws)
{
	struct z_stream_s z = { .workspace = ws };
	int rc;

	if (zlib_inflateInit2(&z, MAX_WBITS) != Z_OK)
		return false;
	z.next_in = src;
	z.avail_in = src_len;
	z.next_out = dst;
	z.avail_out = dst_len;
	rc = zlib_inflate(&z, Z_FINISH);
	zlib_inflateEnd(&z);
	return rc == Z_STREAM_END && z.total_out == dst_len;
}

/* Inflates u's zlib blob into u->raw (u->raw_len bytes exactly) and undoes
 * the translator's uw_pack() (unwind/uw_pack.h). False if it is not
 * exactly that. */
static bool stp_uobject_inflate(struct stp_uobject *u, void *ws)
{
	void *scratch;
	uw_u32 scratch_len;

	u->raw = kvmalloc(u->raw_len, GFP_KERNEL);
	if (!u->raw || !stp_inflate_exact(u->raw, u->raw_len, u->blob, u->blob_len, ws))
		return false;
	scratch_len = uw_pack_scratch_size(u->raw, u->raw_len);
	if (!scratch_len) /* not a table: uw_table_open() says so */
		return true;
	scratch = kvmalloc(scratch_len, GFP_KERNEL);
	if (!scratch)
		return false;
	uw_unpack(u->raw, u->raw_len, scratch);
	kvfree(scratch);
	return true;
}

/* Inflates and opens u's line table (zlib only: no uw_pack() step). A
 * table that cannot be used leaves lines_ok false: its addresses print as
 * hex, as for an object without DWARF. */
static void stp_uobject_open_lines(struct stp_uobject *u, void *ws)
{
	if (!u->lines_blob || !u->lines_raw_len)
		return;
	u->lines_raw = kvmalloc(u->lines_raw_len, GFP_KERNEL);
	if (!u->lines_raw ||
	    !stp_inflate_exact(u->lines_raw, u->lines_raw_len, u->lines_blob, u->lines_blob_len, ws) ||
	    stp_lines_open(&u->lines, u->lines_raw, u->lines_raw_len))
		goto bad;
	u->lines_ok = true;
	return;
bad:
	stp_ctl_send("warning the line table of %s is invalid", u->path);
}

static void stp_uobjects_open(void)
{
	void *ws = NULL;
	unsigned i;

	for (i = 0; i < stp_module.n_uobjects; i++) {
		struct stp_uobject *u = &stp_module.uobjects[i];
		const void *table = u->blob;
		unsigned len = u->blob_len;
		int rc;

		if (!ws && (u->raw_len || u->lines_blob))
			ws = kvmalloc(zlib_inflate_workspacesize(), GFP_KERNEL);
		if (ws)
			stp_uobject_open_lines(u, ws);
		if (u->raw_len) {
			if (!ws || !stp_uobject_inflate(u, ws)) {
				stp_ctl_send("warning the unwind table of %s cannot be inflated",
					     u->path);
				u->table_ok = false;
				continue;
			}
			table = u->raw;
			len = u->raw_len;
		}
		rc = table ? uw_table_open(&u->table, table, len) : UW_EBADTABLE;
		u->table_ok = rc == 0;
		if (rc)
			stp_ctl_send("warning the unwind table of %s is invalid: %s", u->path,
				     uw_strerror(rc));
	}
	kvfree(ws);
}

/* Scans every process that exists now (the session start's context: paths
 * are relative to staprun's root). */
static void stp_tf_scan_existing(void)
{
	struct mm_struct **mms;
	struct task_struct *p;
	unsigned cap = 256, n, i;
	bool more;

	for (;;) {
		mms = kvmalloc_array(cap, sizeof(*mms), GFP_KERNEL);
		if (!mms) {
			stp_ctl_send("warning the task finder could not scan the running processes");
			return;
		}
		n = 0;
		more = false;
		rcu_read_lock();
		for_each_process(p) {
			struct mm_struct *mm;
			if (p->flags & PF_KTHREAD)
				continue;
			if (n == cap) {
				more = true;
				break;
			}
			mm = get_task_mm(p);
			if (mm)
				mms[n++] = mm;
		}
		rcu_read_unlock();
		if (!more)
			break;
		for (i = 0; i < n; i++)
			mmput(mms[i]);
		kvfree(mms);
		cap *= 4;
	}
	for (i = 0; i < n; i++) {
		stp_vma_rescan(mms[i], NULL);
		mmput(mms[i]);
	}
	kvfree(mms);
}

static void stp_tf_stop(void);

/* Before the begin probes; 0 or -errno (and an error message). */
static int stp_tf_start(void)
{
	int rc;

	if (!stp_module.need_vma_tracker)
		return 0;
	stp_tf_started = true;
	stp_uobjects_open();
	if (current->mm)
		stp_vdso_prepare(current->mm->context.vdso_image);
	atomic_set(&stp_vma_active, 1);
	stp_twq_open(&stp_tf_queue_of_rescans);
	rc = stp_tp_hooks_register(stp_tf_tracepoints, ARRAY_SIZE(stp_tf_tracepoints), 0,
				   "the task finder");
	if (rc) {
		stp_tf_stop();
		return rc;
	}
	stp_tf_scan_existing();
	return 0;
}

/* After the event probes are disarmed: no callback or work is left
 * behind. The map itself stays readable until stp_vma_free_all(). */
static void stp_tf_stop(void)
{
	if (!stp_tf_started)
		return;
	stp_tf_started = false;
	stp_twq_refuse(&stp_tf_queue_of_rescans);
	stp_tp_hooks_unregister(stp_tf_tracepoints, ARRAY_SIZE(stp_tf_tracepoints));
	stp_twq_drain(&stp_tf_queue_of_rescans, 5 * HZ);
}
