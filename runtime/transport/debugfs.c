/* The files staprun opens: /sys/kernel/debug/stap/MODULE/{data,ctl}.
 * `data` yields probe output in commit order; `ctl` yields control
 * messages and takes commands ("tz GMTOFF NAME", "start PID", "stop"). Both support poll();
 * a timer, never probe context, wakes sleeping readers. */

static struct dentry *stp_debugfs_dir;
static DEFINE_MUTEX(stp_read_mutex);
static struct timer_list stp_wake_timer;
static void stp_session_start(long target_pid);
static void stp_session_stop(void);
static int stp_set_timezone(char *arg);

static bool stp_data_ready(void)
{
	return stp_transport_pending() || stp_session_state() == STP_SESSION_STOPPED;
}

/* Copies whole records, oldest first across all CPUs, into `ubuf`. */
static ssize_t stp_data_copy(char __user *ubuf, size_t count)
{
	struct stp_ring_hdr h;
	ssize_t done = 0;

	for (;;) {
		struct stp_ring *r;
		u32 pos, off, first;
		int i = stp_ring_pick(stp_rings, nr_cpu_ids, &h);
		if (i < 0)
			break;
		if (h.len == 0) { /* switch_file()'s marker (transport.c) */
			if (done)
				break;
			stp_ring_consume(stp_rings[i], &h);
			return -ENOMSG;
		}
		if (h.len > count - done) {
			if (done == 0)
				return -EMSGSIZE; /* reader's buffer is smaller than a record */
			break;
		}
		r = stp_rings[i];
		pos = stp_ring_payload_pos(r);
		off = pos & (r->size - 1);
		first = min_t(u32, h.len, r->size - off);
		if (copy_to_user(ubuf + done, r->buf + off, first) ||
		    copy_to_user(ubuf + done + first, r->buf, h.len - first))
			return done ? done : -EFAULT;
		stp_ring_consume(r, &h);
		done += h.len;
	}
	return done;
}

static ssize_t stp_data_read(struct file *f, char __user *ubuf, size_t count, loff_t *ppos)
{
	ssize_t n;

	for (;;) {
		if (mutex_lock_interruptible(&stp_read_mutex))
			return -ERESTARTSYS;
		n = stp_data_copy(ubuf, count);
		mutex_unlock(&stp_read_mutex);
		if (n != 0 || stp_session_state() == STP_SESSION_STOPPED)
			return n; /* 0 = end of output */
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(stp_wq, stp_data_ready()))
			return -ERESTARTSYS;
	}
}

static __poll_t stp_data_poll(struct file *f, poll_table *wait)
{
	poll_wait(f, &stp_wq, wait);
	return stp_data_ready() ? EPOLLIN | EPOLLRDNORM : 0;
}

static ssize_t stp_ctl_read(struct file *f, char __user *ubuf, size_t count, loff_t *ppos)
{
	char buf[512];
	size_t n;

	for (;;) {
		n = stp_ctl_take(buf, min(count, sizeof(buf)));
		if (n)
			return copy_to_user(ubuf, buf, n) ? -EFAULT : n;
		if (f->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(stp_wq, stp_ctl_pending()))
			return -ERESTARTSYS;
	}
}

static ssize_t stp_ctl_write(struct file *f, const char __user *ubuf, size_t count, loff_t *ppos)
{
	char cmd[64];
	size_t n = min(count, sizeof(cmd) - 1);
	long pid = 0;

	if (copy_from_user(cmd, ubuf, n))
		return -EFAULT;
	cmd[n] = '\0';
	if (strncmp(cmd, "start", 5) == 0) {
		if (stp_session_state() != STP_SESSION_LOADED)
			return -EBUSY;
		if (cmd[5] == ' ' && kstrtol(strim(cmd + 6), 10, &pid))
			return -EINVAL;
		stp_session_start(pid);
	} else if (strncmp(cmd, "tz ", 3) == 0) {
		if (stp_session_state() != STP_SESSION_LOADED)
			return -EBUSY;
		if (stp_set_timezone(cmd + 3))
			return -EINVAL;
	} else if (strncmp(cmd, "stop", 4) == 0) {
		stp_session_stop();
	} else {
		return -EINVAL;
	}
	return count;
}

static __poll_t stp_ctl_poll(struct file *f, poll_table *wait)
{
	poll_wait(f, &stp_wq, wait);
	return stp_ctl_pending() ? EPOLLIN | EPOLLRDNORM : 0;
}

static const struct file_operations stp_data_fops = {
	.owner = THIS_MODULE,
	.read = stp_data_read,
	.poll = stp_data_poll,
	.llseek = no_llseek,
};

static const struct file_operations stp_ctl_fops = {
	.owner = THIS_MODULE,
	.read = stp_ctl_read,
	.write = stp_ctl_write,
	.poll = stp_ctl_poll,
	.llseek = no_llseek,
};

static void stp_wake_fn(struct timer_list *t)
{
	if (stp_transport_pending() || stp_ctl_pending())
		wake_up_interruptible(&stp_wq);
	mod_timer(&stp_wake_timer, jiffies + max(1, HZ / 100));
}

static int stp_debugfs_init(void)
{
	struct dentry *top = debugfs_lookup("stap", NULL);

	if (!top)
		top = debugfs_create_dir("stap", NULL);
	if (IS_ERR_OR_NULL(top)) /* lost a race with another module: look again */
		top = debugfs_lookup("stap", NULL);
	if (IS_ERR_OR_NULL(top))
		return -ENODEV;
	stp_debugfs_dir = debugfs_create_dir(THIS_MODULE->name, top);
	dput(top);
	if (IS_ERR(stp_debugfs_dir))
		return PTR_ERR(stp_debugfs_dir);
	debugfs_create_file("data", 0400, stp_debugfs_dir, NULL, &stp_data_fops);
	debugfs_create_file("ctl", 0600, stp_debugfs_dir, NULL, &stp_ctl_fops);
	timer_setup(&stp_wake_timer, stp_wake_fn, 0);
	mod_timer(&stp_wake_timer, jiffies + 1);
	return 0;
}

static void stp_debugfs_exit(void)
{
	if (IS_ERR_OR_NULL(stp_debugfs_dir))
		return;
	del_timer_sync(&stp_wake_timer);
	debugfs_remove_recursive(stp_debugfs_dir);
	stp_debugfs_dir = NULL;
}
