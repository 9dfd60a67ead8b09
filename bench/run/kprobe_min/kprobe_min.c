/* The floor for a probe's per-hit cost: a hand-written kprobe on the
 * symbol given as `sym=` whose handler only counts hits in a per-CPU
 * counter. Reports the count when unloaded. */
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/percpu.h>

static char *sym = "__x64_sys_getppid";
module_param(sym, charp, 0444);

static DEFINE_PER_CPU(unsigned long, hits);

static int count_hit(struct kprobe *p, struct pt_regs *regs)
{
	this_cpu_inc(hits);
	return 0;
}

static struct kprobe kp = { .pre_handler = count_hit };

static int __init kprobe_min_init(void)
{
	kp.symbol_name = sym;
	return register_kprobe(&kp);
}

static void __exit kprobe_min_exit(void)
{
	unsigned long n = 0;
	int cpu;
	unregister_kprobe(&kp);
	for_each_possible_cpu(cpu)
		n += per_cpu(hits, cpu);
	pr_info("kprobe_min: %lu hits on %s\n", n, sym);
}

module_init(kprobe_min_init);
module_exit(kprobe_min_exit);
MODULE_LICENSE("GPL");
