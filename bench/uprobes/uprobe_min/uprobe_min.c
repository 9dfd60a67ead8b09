/* The floor for a uprobe's (ret=1: a uretprobe's) per-hit cost: a
 * hand-written uprobe on the file `path` at file offset `offset` whose
 * handler only counts hits in a per-CPU counter. Reports the count when
 * unloaded. */
#include <linux/module.h>
#include <linux/namei.h>
#include <linux/percpu.h>
#include <linux/uprobes.h>

static char *path = "";
module_param(path, charp, 0444);
static unsigned long offset;
module_param(offset, ulong, 0444);
static bool ret;
module_param(ret, bool, 0444);

static DEFINE_PER_CPU(unsigned long, hits);
static struct inode *inode;

static int count_hit(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	this_cpu_inc(hits);
	return 0;
}

static int count_return(struct uprobe_consumer *uc, unsigned long func, struct pt_regs *regs)
{
	this_cpu_inc(hits);
	return 0;
}

static struct uprobe_consumer consumer;

static int __init uprobe_min_init(void)
{
	struct path p;
	int err = kern_path(path, LOOKUP_FOLLOW, &p);
	if (err)
		return err;
	/* the file's own inode, not an overlay's over it: uprobes need an
	 * inode whose mapping can read pages */
	inode = igrab(d_real_inode(p.dentry));
	path_put(&p);
	if (ret)
		consumer.ret_handler = count_return;
	else
		consumer.handler = count_hit;
	err = uprobe_register(inode, offset, &consumer);
	if (err)
		iput(inode);
	return err;
}

static void __exit uprobe_min_exit(void)
{
	unsigned long n = 0;
	int cpu;
	uprobe_unregister(inode, offset, &consumer);
	iput(inode);
	for_each_possible_cpu(cpu)
		n += per_cpu(hits, cpu);
	pr_info("uprobe_min: %lu hits\n", n);
}

module_init(uprobe_min_init);
module_exit(uprobe_min_exit);
MODULE_LICENSE("GPL");
