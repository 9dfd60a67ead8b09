/* procfs probes: one file per NAME in /proc/systemtap/MODULE, made when the
 * probes are registered and removed when they are unregistered.
 *
 * Reading the file from its start runs the read probe, whose $value
 * (struct stp_procfs_value) collects what the reader then gets, in as many
 * read() calls as it takes; each write() runs the write probe once with
 * the bytes written (cut at the buffer's size) as $value. The probes run
 * in the reader's or writer's process context, like any event probe: only
 * while the session runs. A file's reads and writes take turns (its
 * mutex), outside the probe context. */
#include <linux/namei.h>
#include <linux/proc_fs.h>

struct stp_procfs_file {
	const char *name;
	const struct stp_probe *read;
	bool write; /* it has write probes: each runs on every write */
	umode_t mode;
	struct mutex lock;
	struct stp_procfs_value value;
	struct proc_dir_entry *pde;
};

static struct stp_procfs_file *stp_procfs_files;
static unsigned stp_procfs_nfiles;
static struct proc_dir_entry *stp_procfs_dir; /* /proc/systemtap/MODULE */
static bool stp_procfs_made_root;             /* this module made /proc/systemtap */

static void stp_procfs_run(struct stp_procfs_file *f, const struct stp_probe *p)
{
	stp_run_event_probe_data(p, NULL, &f->value, 0, false);
}

static ssize_t stp_procfs_read(struct file *file, char __user *buf, size_t count, loff_t *pos)
{
	struct stp_procfs_file *f = pde_data(file_inode(file));
	ssize_t n;

	if (!f->read)
		return -EINVAL;
	mutex_lock(&f->lock);
	if (*pos == 0) {
		f->value.len = 0;
		f->value.buf[0] = '\0';
		stp_procfs_run(f, f->read);
	}
	n = simple_read_from_buffer(buf, count, pos, f->value.buf, f->value.len);
	mutex_unlock(&f->lock);
	return n;
}

/* Every write probe of the file (input.char and input.line share
 * __stdin), in the order of the probe table. */
static void stp_procfs_run_writers(struct stp_procfs_file *f)
{
	const struct stp_probe_table *t = stp_kind_table(PROCFS);
	const struct stp_procfs_probe *probes = t->probes;
	unsigned i;

	for (i = 0; i < t->n; i++)
		if (probes[i].write && !strcmp(probes[i].path, f->name))
			stp_procfs_run(f, probes[i].probe);
}

static ssize_t stp_procfs_write(struct file *file, const char __user *buf, size_t count,
				loff_t *pos)
{
	struct stp_procfs_file *f = pde_data(file_inode(file));
	size_t n = min(count, f->value.size - 1);

	if (!f->write)
		return -EINVAL;
	mutex_lock(&f->lock);
	if (copy_from_user(f->value.buf, buf, n)) {
		mutex_unlock(&f->lock);
		return -EFAULT;
	}
	f->value.buf[n] = '\0';
	f->value.len = n;
	stp_procfs_run_writers(f);
	mutex_unlock(&f->lock);
	return count;
}

static const struct proc_ops stp_procfs_ops = {
	.proc_read = stp_procfs_read,
	.proc_write = stp_procfs_write,
	.proc_lseek = default_llseek,
};

/* The file of `name`, added to the table when new. */
static struct stp_procfs_file *stp_procfs_file(const char *name)
{
	unsigned i;
	for (i = 0; i < stp_procfs_nfiles; i++)
		if (!strcmp(stp_procfs_files[i].name, name))
			return &stp_procfs_files[i];
	stp_procfs_files[stp_procfs_nfiles].name = name;
	mutex_init(&stp_procfs_files[stp_procfs_nfiles].lock);
	return &stp_procfs_files[stp_procfs_nfiles++];
}

static void stp_procfs_unregister(void)
{
	unsigned i;
	if (stp_procfs_dir)
		proc_remove(stp_procfs_dir); /* and the files in it */
	stp_procfs_dir = NULL;
	if (stp_procfs_made_root)
		remove_proc_entry("systemtap", NULL);
	stp_procfs_made_root = false;
	for (i = 0; i < stp_procfs_nfiles; i++)
		kfree(stp_procfs_files[i].value.buf);
	kfree(stp_procfs_files);
	stp_procfs_files = NULL;
	stp_procfs_nfiles = 0;
}

static int stp_procfs_register(void)
{
	const struct stp_probe_table *t = stp_kind_table(PROCFS);
	const struct stp_procfs_probe *probes = t->probes;
	char dir[MODULE_NAME_LEN + 16];
	struct path root;
	unsigned i;

	if (!t->n)
		return 0;
	stp_procfs_files = kcalloc(t->n, sizeof(*stp_procfs_files), GFP_KERNEL);
	if (!stp_procfs_files)
		return -ENOMEM;
	for (i = 0; i < t->n; i++) {
		const struct stp_procfs_probe *p = &probes[i];
		struct stp_procfs_file *f = stp_procfs_file(p->path);
		size_t size = p->write ? MAXSTRINGLEN : p->maxsize;
		if (p->write)
			f->write = true;
		else
			f->read = p->probe;
		f->mode |= (p->write ? 0222 : 0444) & ~p->umask;
		f->value.size = max(f->value.size, size);
	}
	for (i = 0; i < stp_procfs_nfiles; i++) {
		struct stp_procfs_file *f = &stp_procfs_files[i];
		f->value.buf = kzalloc(f->value.size, GFP_KERNEL);
		if (!f->value.buf)
			goto fail;
	}
	/* /proc/systemtap is shared by the modules that run at once: made by
	 * the first (proc_mkdir would warn about a second one) */
	if (kern_path("/proc/systemtap", LOOKUP_DIRECTORY, &root) == 0) {
		path_put(&root);
	} else {
		if (!proc_mkdir("systemtap", NULL))
			goto fail;
		stp_procfs_made_root = true;
	}
	snprintf(dir, sizeof(dir), "systemtap/%s", THIS_MODULE->name);
	stp_procfs_dir = proc_mkdir(dir, NULL);
	if (!stp_procfs_dir)
		goto fail;
	for (i = 0; i < stp_procfs_nfiles; i++) {
		struct stp_procfs_file *f = &stp_procfs_files[i];
		f->pde = proc_create_data(f->name, S_IFREG | f->mode, stp_procfs_dir, &stp_procfs_ops, f);
		if (!f->pde) {
			stp_ctl_send("error cannot create /proc/%s/%s", dir, f->name);
			stp_procfs_unregister();
			return -ENOMEM;
		}
	}
	return 0;
fail:
	stp_ctl_send("error cannot create /proc/systemtap/%s", THIS_MODULE->name);
	stp_procfs_unregister();
	return -ENOMEM;
}

static const struct stp_probe_kind_ops stp_kind_procfs = {
	.name = "procfs",
	.register_probes = stp_procfs_register,
	.unregister_probes = stp_procfs_unregister,
};
