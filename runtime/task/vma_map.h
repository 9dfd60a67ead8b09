/* The VMA tracker's lookup API: which object is mapped at a user address of
 * the current process, and where its file offset 0 is (its load bias).
 *
 * The task finder (task_finder.c) keeps, per address space (mm), an
 * RCU-published snapshot of its executable file mappings; the vdso is read
 * from the mm itself. Readers take no lock: probe handlers run with
 * interrupts off, which is an RCU read-side critical section (see
 * docs/runtime.md, "Task finder and VMA tracker"). */
#ifndef STP_TASK_VMA_MAP_H
#define STP_TASK_VMA_MAP_H

#include <linux/types.h>
#include "unwind.h"
#include "line_table.h"

struct task_struct;

/* Objects the module carries tables for (`stap -d PATH`, `--ldd`): the
 * generated code fills stp_module.uobjects / n_uobjects; path is the file as
 * the target sees it (symlinks resolved: /bin/ls is /usr/bin/ls on Debian).
 * The blob is the table zlib-compressed when raw_len is not 0 (the module's
 * size: 2.5-3x smaller); the runtime inflates it into `raw` and opens it
 * when the tracker starts (table, table_ok), and frees `raw` with the map.
 * The lines_* fields are the same for the object's line table (zlib only;
 * lines_blob NULL when the script needs none or the object has none). */
struct stp_uobject {
	const char *path;
	const unsigned char *blob;
	unsigned blob_len;
	unsigned raw_len;
	void *raw;
	struct uw_table table;
	bool table_ok;
	const unsigned char *lines_blob;
	unsigned lines_blob_len;
	unsigned lines_raw_len;
	void *lines_raw;
	struct stp_lines lines;
	bool lines_ok;
};

struct stp_vma_hit {
	unsigned long start, end;      /* the mapping containing addr */
	unsigned long base;            /* run-time address of the object's file offset 0 (the vdso: its start) */
	const char *path;              /* the mapped file as the kernel names it, "[vdso]" for the vdso */
	const char *name;              /* its last path component ("libc.so.6", "[vdso]") */
	const struct uw_table *table;  /* the -d object matched by path, the vdso's table, or NULL */
	const struct stp_lines *lines; /* the -d object's line table, or NULL */
};

/* Any context (NMI, irq, kprobe), lock-free and bounded; true if addr is in
 * an executable mapping of tsk's address space (only tsk == current is
 * supported: another task's mm may change under the caller). The strings and
 * the table stay valid until the probe handler returns. False when the
 * tracker is not running (the module does not need it). */
#ifdef STP_FEATURE_USER
bool stp_vma_lookup(struct task_struct *tsk, unsigned long addr, struct stp_vma_hit *hit);
#endif

/* Where tsk (== current) mapped the file `path` (as the kernel names it):
 * the run-time address of its file offset 0, from its first executable
 * mapping. Same context rules as stp_vma_lookup; one pass over the
 * address space's snapshot. */
bool stp_vma_object_base(struct task_struct *tsk, const char *path, unsigned long *base);

/* The load bias of user object `path` in the current process, for
 * @var(..., "PATH") (0 and a run-time error when it is not mapped). */
struct stp_context;
unsigned long stp_uobject_bias(struct stp_context *c, const char *path, unsigned long link_base);

#endif /* STP_TASK_VMA_MAP_H */
