/* The VMA map: per address space (mm), an immutable snapshot of its
 * executable file mappings, published with RCU.
 *
 * Writers (stp_vma_rescan) run in sleepable context: the task's own task
 * work after exec, fork and mapping system calls, or the session start for
 * processes that already exist. A rescan reads the mm's VMAs under its mmap
 * lock and publishes a new snapshot while still holding it, so snapshots are
 * published in the order the address space changed. All writers serialise
 * on stp_vma_mutex.
 *
 * Readers (stp_vma_lookup, stp_vma_overlaps) take no lock: they run with
 * preemption (probe handlers: interrupts) disabled, which since the RCU
 * flavours were consolidated (4.20) is an RCU read-side critical section for
 * synchronize_rcu() and kvfree_rcu(). Old snapshots are freed after a grace
 * period; entries and objects only by the collector, after synchronize_rcu().
 *
 * Entries pin their mm_struct with mmgrab() (not the address space: mm_count,
 * not mm_users), so an mm pointer in the table is never a recycled one. The
 * collector drops entries whose address space is gone (mm_users == 0).
 *
 * Mapped files are interned as objects (path as the mapping task sees it,
 * device and inode number, the matching -d table): snapshots point at them,
 * and a rescan reuses the previous snapshot's object for an unchanged
 * mapping, so d_path() runs only for new mappings. */

#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/mmap_lock.h>
#include <linux/dcache.h>
#include <linux/hash.h>
#include <linux/rculist.h>
#include <linux/workqueue.h>

#define STP_MM_HASH_BITS 10
#define STP_OBJ_HASH_BITS 8
/* A lookup walks at most this many entries of one hash chain. */
#define STP_MM_CHAIN_MAX 64

struct stp_vma_obj {
	struct hlist_node node;        /* stp_obj_hash (writers only) */
	dev_t dev;
	unsigned long ino;
	const struct uw_table *table;  /* the -d object with this path, or NULL */
	const struct stp_lines *lines; /* its line table, or NULL */
	const char *name;              /* the last component of path */
	bool marked;                   /* collector: referenced by a snapshot */
	char path[];
};

struct stp_vma_seg {
	unsigned long start, end, base;
	const struct stp_vma_obj *obj;
};

struct stp_vma_snap {
	struct rcu_head rcu;
	unsigned n;
	struct stp_vma_seg seg[];      /* sorted by start, disjoint */
};

struct stp_mm_entry {
	struct hlist_node node;        /* stp_mm_hash, RCU */
	struct mm_struct *mm;          /* mmgrab()bed */
	struct stp_vma_snap __rcu *snap;
	struct list_head dead;         /* collector */
};

static struct hlist_head stp_mm_hash[1 << STP_MM_HASH_BITS];
static struct hlist_head stp_obj_hash[1 << STP_OBJ_HASH_BITS];
static DEFINE_MUTEX(stp_vma_mutex);
static unsigned stp_vma_nr_mm, stp_vma_nr_obj;
/* The collector sweeps objects once there are this many. */
static unsigned stp_vma_obj_sweep_at = 256;
/* Lookups answer only between the tracker's start and its cleanup. */
static atomic_t stp_vma_active = ATOMIC_INIT(0);
static atomic_t stp_vma_chain_overflows = ATOMIC_INIT(0);

static void stp_vma_gc_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(stp_vma_gc_work, stp_vma_gc_fn);

static inline struct hlist_head *stp_mm_bucket(const struct mm_struct *mm)
{
	return &stp_mm_hash[hash_ptr(mm, STP_MM_HASH_BITS)];
}

/* ---- read side: any context, preemption or interrupts disabled ---- */

static struct stp_mm_entry *stp_mm_find_rcu(const struct mm_struct *mm)
{
	struct stp_mm_entry *e;
	unsigned steps = 0;

	hlist_for_each_entry_rcu(e, stp_mm_bucket(mm), node, true) {
		if (e->mm == mm)
			return e;
		if (++steps == STP_MM_CHAIN_MAX) {
			atomic_inc(&stp_vma_chain_overflows);
			break;
		}
	}
	return NULL;
}

/* Index of the first segment that ends above addr (n if none). */
static unsigned stp_vma_first_above(const struct stp_vma_snap *s, unsigned long addr)
{
	unsigned lo = 0, hi = s->n;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (s->seg[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct stp_vma_snap *stp_vma_snap_rcu(const struct mm_struct *mm)
{
	struct stp_mm_entry *e = stp_mm_find_rcu(mm);
	return e ? rcu_dereference_sched(e->snap) : NULL;
}

/* tsk's address space, if lookups may read its map now (the tracker
 * runs, tsk is current and has one), else NULL. */
static struct mm_struct *stp_vma_lookup_mm(struct task_struct *tsk)
{
	if (!atomic_read(&stp_vma_active) || tsk != current)
		return NULL;
	return READ_ONCE(tsk->mm);
}

bool stp_vma_lookup(struct task_struct *tsk, unsigned long addr, struct stp_vma_hit *hit)
{
	const struct stp_vma_snap *s;
	const struct stp_vma_seg *seg;
	struct mm_struct *mm = stp_vma_lookup_mm(tsk);
	bool found = false;
	unsigned i;

	if (!mm)
		return false;
	if (stp_vdso_lookup(mm, addr, hit))
		return true;
	/* probe handlers already run with interrupts off; other callers get
	 * a read-side section for the search itself */
	preempt_disable_notrace();
	s = stp_vma_snap_rcu(mm);
	if (s) {
		i = stp_vma_first_above(s, addr);
		seg = &s->seg[i];
		if (i < s->n && seg->start <= addr) {
			hit->start = seg->start;
			hit->end = seg->end;
			hit->base = seg->base;
			hit->path = seg->obj->path;
			hit->name = seg->obj->name;
			hit->table = seg->obj->table;
			hit->lines = seg->obj->lines;
			found = true;
		}
	}
	preempt_enable_notrace();
	return found;
}

bool stp_vma_object_base(struct task_struct *tsk, const char *path, unsigned long *base)
{
	const struct stp_vma_snap *s;
	struct mm_struct *mm = stp_vma_lookup_mm(tsk);
	bool found = false;
	unsigned i;

	if (!mm)
		return false;
	preempt_disable_notrace();
	s = stp_vma_snap_rcu(mm);
	for (i = 0; s && i < s->n && !found; i++)
		if (!strcmp(s->seg[i].obj->path, path)) {
			*base = s->seg[i].base;
			found = true;
		}
	preempt_enable_notrace();
	return found;
}

/* How far the current process loaded user object `path` from its
 * link-time addresses (@var(..., "PATH")): the probed
 * object's own bias in one of its uprobes, else where the VMA map says
 * the process mapped it. `link_base`: the object's link-time address of
 * its file offset 0. A process that has not mapped it: a run-time error. */
unsigned long stp_uobject_bias(struct stp_context *c, const char *path, unsigned long link_base)
{
	unsigned long base;

#ifdef STP_FEATURE_UPROBE
	if (c->uprobe && !strcmp(c->uprobe->path, path))
		return stp_uprobe_bias(c);
#endif
	if (stp_vma_object_base(current, path, &base))
		return base - link_base;
	if (!c->last_error) {
		snprintf(c->error_buf, sizeof(c->error_buf), "%s is not mapped in process %d",
			 path, task_tgid_nr(current));
		stp_error(c, c->error_buf);
	}
	return 0;
}

/* Does [start, start + len) meet a tracked mapping of mm? (The system call
 * hook's filter: caller has preemption disabled.) */
static bool stp_vma_overlaps(const struct mm_struct *mm, unsigned long start, unsigned long len)
{
	const struct stp_vma_snap *s = stp_vma_snap_rcu(mm);
	unsigned long end = start + len < start ? ULONG_MAX : start + len;
	unsigned i;

	if (!s || !len)
		return false;
	i = stp_vma_first_above(s, start);
	return i < s->n && s->seg[i].start < end;
}

/* ---- write side: sleepable, stp_vma_mutex ---- */

static inline bool stp_vma_tracked(const struct vm_area_struct *vma)
{
	return vma->vm_file && (vma->vm_flags & VM_EXEC);
}

static struct stp_mm_entry *stp_mm_find_locked(const struct mm_struct *mm)
{
	struct stp_mm_entry *e;
	hlist_for_each_entry(e, stp_mm_bucket(mm), node)
		if (e->mm == mm)
			return e;
	return NULL;
}

static struct stp_vma_snap *stp_mm_snap_locked(struct stp_mm_entry *e)
{
	return rcu_dereference_protected(e->snap, lockdep_is_held(&stp_vma_mutex));
}

/* The -d object of a path, or NULL. */
static const struct stp_uobject *stp_uobject_of(const char *path)
{
	unsigned i;
	for (i = 0; i < stp_module.n_uobjects; i++) {
		const struct stp_uobject *u = &stp_module.uobjects[i];
		if (u->path && !strcmp(u->path, path))
			return u;
	}
	return NULL;
}

/* The inflated tables, with the VMA map (stp_vma_free_all): no reader is
 * left. */
static void stp_uobjects_free(void)
{
	unsigned i;

	for (i = 0; i < stp_module.n_uobjects; i++) {
		struct stp_uobject *u = &stp_module.uobjects[i];
		u->table_ok = false;
		kvfree(u->raw);
		u->raw = NULL;
		u->lines_ok = false;
		kvfree(u->lines_raw);
		u->lines_raw = NULL;
	}
}

/* The object of a mapped file; d_path() is relative to current's root. */
static const struct stp_vma_obj *stp_vma_intern(struct file *file, char *buf)
{
	struct inode *inode = file_inode(file);
	dev_t dev = inode->i_sb->s_dev;
	unsigned long ino = inode->i_ino;
	struct hlist_head *bucket = &stp_obj_hash[hash_long(ino ^ dev, STP_OBJ_HASH_BITS)];
	struct stp_vma_obj *o;
	const struct stp_uobject *u;
	char *path = d_path(&file->f_path, buf, PATH_MAX);
	size_t len;

	if (IS_ERR(path)) { /* too long, say: the file's own name */
		snprintf(buf, PATH_MAX, "%pd", file->f_path.dentry);
		path = buf;
	}
	hlist_for_each_entry(o, bucket, node)
		if (o->dev == dev && o->ino == ino && !strcmp(o->path, path))
			return o;
	len = strlen(path);
	o = kmalloc(sizeof(*o) + len + 1, GFP_KERNEL);
	if (!o)
		return NULL;
	o->dev = dev;
	o->ino = ino;
	memcpy(o->path, path, len + 1);
	o->name = strrchr(o->path, '/') ? strrchr(o->path, '/') + 1 : o->path;
	u = stp_uobject_of(o->path);
	o->table = u && u->table_ok ? &u->table : NULL;
	o->lines = u && u->lines_ok ? &u->lines : NULL;
	o->marked = false;
	hlist_add_head(&o->node, bucket);
	stp_vma_nr_obj++;
	return o;
}

/* The previous snapshot's object for the same mapping of the same file. */
static const struct stp_vma_obj *stp_vma_reuse(const struct stp_vma_snap *prev,
					       const struct stp_vma_seg *seg,
					       const struct inode *inode)
{
	const struct stp_vma_seg *p;
	unsigned i;

	if (!prev)
		return NULL;
	i = stp_vma_first_above(prev, seg->start);
	p = &prev->seg[i];
	if (i < prev->n && p->start == seg->start && p->end == seg->end && p->base == seg->base &&
	    p->obj->ino == inode->i_ino && p->obj->dev == inode->i_sb->s_dev)
		return p->obj;
	return NULL;
}

/* Publishes a new snapshot of mm's executable file mappings. `mm` is
 * pinned by the caller (current's, or from get_task_mm()); `hint` is an mm
 * whose snapshot likely holds the same mappings (the parent after a fork),
 * or NULL; it is only compared, never dereferenced. Returns 0 or -errno. */
static int stp_vma_rescan(struct mm_struct *mm, const struct mm_struct *hint)
{
	struct stp_mm_entry *e, *fresh;
	struct stp_vma_snap *snap = NULL, *old;
	const struct stp_vma_snap *prev;
	struct vm_area_struct *vma;
	unsigned n = 0, i = 0;
	char *buf;
	int rc = 0;

	stp_vdso_prepare(READ_ONCE(mm->context.vdso_image));
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	fresh = kzalloc(sizeof(*fresh), GFP_KERNEL);
	if (!buf || !fresh) {
		rc = -ENOMEM;
		goto out_free;
	}
	if (mmap_read_lock_killable(mm)) {
		rc = -EINTR;
		goto out_free;
	}
	{
		VMA_ITERATOR(vmi, mm, 0);
		for_each_vma(vmi, vma)
			n += stp_vma_tracked(vma);
	}
	snap = kvmalloc(struct_size(snap, seg, n), GFP_KERNEL);
	if (!snap) {
		rc = -ENOMEM;
		goto out_unlock;
	}
	mutex_lock(&stp_vma_mutex);
	e = stp_mm_find_locked(mm);
	if (!e) {
		e = fresh;
		fresh = NULL;
		e->mm = mm;
		mmgrab(mm);
		hlist_add_head_rcu(&e->node, stp_mm_bucket(mm));
		stp_vma_nr_mm++;
	}
	old = stp_mm_snap_locked(e);
	prev = old;
	if (!prev && hint) {
		struct stp_mm_entry *h = stp_mm_find_locked(hint);
		prev = h ? stp_mm_snap_locked(h) : NULL;
	}
	{
		VMA_ITERATOR(vmi, mm, 0);
		for_each_vma(vmi, vma) {
			struct stp_vma_seg *seg = &snap->seg[i];
			if (!stp_vma_tracked(vma) || i == n)
				continue;
			seg->start = vma->vm_start;
			seg->end = vma->vm_end;
			seg->base = vma->vm_start - (vma->vm_pgoff << PAGE_SHIFT);
			seg->obj = stp_vma_reuse(prev, seg, file_inode(vma->vm_file));
			if (!seg->obj)
				seg->obj = stp_vma_intern(vma->vm_file, buf);
			if (seg->obj) /* else out of memory: the mapping is left out */
				i++;
		}
	}
	snap->n = i;
	rcu_assign_pointer(e->snap, snap);
	mutex_unlock(&stp_vma_mutex);
	if (old)
		kvfree_rcu(old, rcu);
out_unlock:
	mmap_read_unlock(mm);
out_free:
	kfree(fresh);
	kfree(buf);
	return rc;
}

/* Drops entries whose address space is gone and, when there are many,
 * objects no snapshot refers to; everything with `all` (at unload). */
static void stp_vma_collect(bool all)
{
	LIST_HEAD(dead);
	HLIST_HEAD(dead_objs);
	struct stp_mm_entry *e, *etmp;
	struct stp_vma_obj *o;
	struct hlist_node *tmp;
	bool sweep;
	unsigned b, i;

	mutex_lock(&stp_vma_mutex);
	for (b = 0; b < ARRAY_SIZE(stp_mm_hash); b++)
		hlist_for_each_entry_safe(e, tmp, &stp_mm_hash[b], node)
			if (all || !atomic_read(&e->mm->mm_users)) {
				hlist_del_rcu(&e->node);
				list_add(&e->dead, &dead);
				stp_vma_nr_mm--;
			}
	sweep = all || stp_vma_nr_obj >= stp_vma_obj_sweep_at;
	if (sweep) {
		for (b = 0; b < ARRAY_SIZE(stp_obj_hash); b++)
			hlist_for_each_entry(o, &stp_obj_hash[b], node)
				o->marked = false;
		for (b = 0; b < ARRAY_SIZE(stp_mm_hash); b++)
			hlist_for_each_entry(e, &stp_mm_hash[b], node) {
				struct stp_vma_snap *s = stp_mm_snap_locked(e);
				for (i = 0; s && i < s->n; i++)
					((struct stp_vma_obj *)s->seg[i].obj)->marked = true;
			}
		for (b = 0; b < ARRAY_SIZE(stp_obj_hash); b++)
			hlist_for_each_entry_safe(o, tmp, &stp_obj_hash[b], node)
				if (!o->marked) {
					hlist_del(&o->node);
					hlist_add_head(&o->node, &dead_objs);
					stp_vma_nr_obj--;
				}
		stp_vma_obj_sweep_at = max(256u, 2 * stp_vma_nr_obj);
	}
	mutex_unlock(&stp_vma_mutex);
	if (list_empty(&dead) && hlist_empty(&dead_objs))
		return;
	synchronize_rcu(); /* no reader is left in what was unlinked */
	list_for_each_entry_safe(e, etmp, &dead, dead) {
		kvfree(rcu_dereference_protected(e->snap, 1));
		mmdrop(e->mm);
		kfree(e);
	}
	hlist_for_each_entry_safe(o, tmp, &dead_objs, node)
		kfree(o);
}

static void stp_vma_gc_fn(struct work_struct *work)
{
	stp_vma_collect(false);
}

/* Any context: collect soon (a process exited or replaced its image). */
static void stp_vma_gc_kick(void)
{
	queue_delayed_work(system_wq, &stp_vma_gc_work, HZ / 10);
}

/* At unload: no lookup, rescan or collector may run any more. */
static void stp_vma_free_all(void)
{
	atomic_set(&stp_vma_active, 0);
	cancel_delayed_work_sync(&stp_vma_gc_work);
	stp_vma_collect(true);
	WARN_ON(stp_vma_nr_mm || stp_vma_nr_obj); /* a leak: the tests fail on it */
	/* snapshots still queued with kvfree_rcu() are freed by the kernel,
	 * which calls no code of this module for them */
	stp_vdso_free();
	stp_uobjects_free();
}
