// A kernel module for the DWARF probe tests: functions whose parameters
// and locals are structs, pointers, arrays, a union, a bitfield, reached
// through a static function, an inline function, labels and several
// source lines. Writing a number N to /sys/kernel/debug/stp_testmod/trigger
// runs stp_testmod_run(N), which calls each function with values derived
// from N and prints (printk) what it passed, so a test can compare what a
// probe reads with what the module says it passed.
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/uaccess.h>

struct stp_point {
	int x;
	long y;
};

struct stp_shape {
	char name[16];
	struct stp_point corner;
	struct stp_point *origin;
	int sides[4];
	unsigned int visible : 1;
	unsigned int color : 5;
	unsigned int layer : 10;
	union {
		int as_int;
		unsigned char as_bytes[4];
	} tag;
	struct stp_shape *next;
};

union stp_value {
	long number;
	void *pointer;
	unsigned char bytes[8];
};

/* Globals for @var (__used, READ_ONCE: -O2 would drop or fold them). */
int stp_testmod_counter;
static long stp_testmod_last __used = -1;
static struct stp_point stp_testmod_origin __used = { 3, 4 };

static struct dentry *stp_dir;

/* Noinline so each is a probe-able function with its own frame. */
noinline int stp_scalar(int a, long b, unsigned char c)
{
	int sum = a + (int)b + c;
	pr_info("stp_testmod: stp_scalar a=%d b=%ld c=%u\n", a, b, c);
	return sum;
}

noinline long stp_struct(struct stp_shape *shape, int which)
{
	long r;

	r = shape->corner.x + shape->corner.y;
	r += shape->sides[which & 3];
	if (shape->origin)
		r += shape->origin->y;
	pr_info("stp_testmod: stp_struct name=%s corner.x=%d corner.y=%ld origin->y=%ld "
		"sides[%d]=%d visible=%u color=%u layer=%u tag=%d next->name=%s\n",
		shape->name, shape->corner.x, shape->corner.y,
		shape->origin ? shape->origin->y : 0L, which & 3, shape->sides[which & 3],
		shape->visible, shape->color, shape->layer, shape->tag.as_int,
		shape->next ? shape->next->name : "(none)");
	return r;
}

noinline long stp_union(union stp_value v, union stp_value *pv)
{
	pr_info("stp_testmod: stp_union v.number=%ld pv->bytes[0]=%u\n", v.number,
		pv->bytes[0]);
	return v.number + pv->bytes[0];
}

/* A static function: local to this file, still in the symbol table
 * (noipa: no constprop clone under another name). */
static noinline __attribute__((noipa)) int stp_static(int depth, const char *label)
{
	int result = depth * 10;

	pr_info("stp_testmod: stp_static depth=%d label=%s\n", depth, label);
	return result + 1;
}

/* An inline function: its instances live inside stp_testmod_run. */
static inline __attribute__((always_inline)) int stp_inline(int factor, int addend)
{
	int product = factor * 7;

	pr_info("stp_testmod: stp_inline factor=%d addend=%d\n", factor, addend);
	return product + addend;
}

noinline int stp_lines(int n)
{
	int total = 0;
	int i;

	for (i = 0; i < n; i++) {
		total += i + n;		/* STP_LINE_LOOP */
		if (total > 1000)
			goto out;
	}
	total += 100;			/* STP_LINE_AFTER */
stp_label_done:
	pr_info("stp_testmod: stp_lines n=%d total=%d\n", n, total);
	return total;
out:
	total = -1;
	goto stp_label_done;
}

/* Callee probes: stp_callee is called twice by stp_caller_a, once by
 * stp_caller_b and once by stp_testmod_run itself; a
 * .callee("stp_callee") probe on one caller sees only that caller's
 * calls. (Not tail calls: each caller works on the result. The log lines
 * from here on do not start with "stp_", which other tests select.) */
noinline int stp_callee(int v)
{
	pr_info("stp_testmod: callee v=%d\n", v);
	return v + 1;
}

noinline int stp_caller_a(int n)
{
	int r = stp_callee(n);

	r += stp_callee(n + 1);
	return r * 2;
}

noinline int stp_caller_b(int n)
{
	return stp_callee(n * 3) - 1;
}

/* After the call `scale` is needed no more: GCC 12 -O2 describes it then
 * as its value at entry (DW_OP_entry_value), which a probe there cannot
 * read (the register is reused). */
noinline long stp_deref(struct stp_point *pt, long scale)
{
	int x = pt->x;
	long y = pt->y;
	long r = stp_callee(x) * scale;

	r += pt->y;
	pr_info("stp_testmod: deref x=%d y=%ld r=%ld\n", pt->x, y, r);
	return r;
}

/* A static function with a parameter it does not use: IPA-SRA drops it
 * from the clone it calls (stp_dropped_arg.isra.0), whose DWARF says its value is
 * what the callers pass (DW_OP_GNU_parameter_ref); the one caller passes
 * 42. */
static noinline int stp_dropped_arg(int used, int unused)
{
	pr_info("stp_testmod: dropped_arg used=%d\n", used);
	return used + 1;
}

static noinline void stp_testmod_run(long n)
{
	static struct stp_point origin;
	static struct stp_shape second = { .name = "second" };
	static struct stp_shape shape;
	union stp_value v, w;
	int r;

	origin.x = (int)n + 1;
	origin.y = n * 100;
	memset(&shape, 0, sizeof(shape));
	strscpy(shape.name, "square", sizeof(shape.name));
	shape.corner.x = (int)n;
	shape.corner.y = n + 2;
	shape.origin = &origin;
	shape.sides[0] = 10;
	shape.sides[1] = 11;
	shape.sides[2] = (int)n + 12;
	shape.sides[3] = 13;
	shape.visible = 1;
	shape.color = 21;
	shape.layer = (unsigned int)n + 300;
	shape.tag.as_int = 0x01020304;
	shape.next = &second;
	v.number = n * 1000;
	w.number = 0;
	w.bytes[0] = 0x5a;

	r = stp_scalar((int)n, n * 2, 'A');
	stp_struct(&shape, 2);
	stp_union(v, &w);
	r += stp_static((int)n + 5, (n & 1) ? "odd" : "even");
	r += stp_inline((int)n, (int)n & 3);
	r += stp_lines((int)n);
	/* Not added to r, which other tests check. */
	stp_caller_a((int)n);
	stp_caller_b((int)n);
	stp_callee((int)n + 100);
	stp_deref(&origin, 3);
	stp_dropped_arg((int)n, 42);
	stp_testmod_counter++;
	WRITE_ONCE(stp_testmod_last, n);
	pr_info("stp_testmod: run n=%ld r=%d counter=%d origin=%d,%ld\n", n, r,
		stp_testmod_counter, READ_ONCE(stp_testmod_origin.x), READ_ONCE(stp_testmod_origin.y));
}

static ssize_t stp_trigger_write(struct file *f, const char __user *buf, size_t len,
				 loff_t *off)
{
	long n;
	int err = kstrtol_from_user(buf, len, 10, &n);

	if (err)
		return err;
	stp_testmod_run(n);
	return len;
}

static const struct file_operations stp_trigger_fops = {
	.owner = THIS_MODULE,
	.write = stp_trigger_write,
};

static int __init stp_testmod_init(void)
{
	stp_dir = debugfs_create_dir("stp_testmod", NULL);
	debugfs_create_file("trigger", 0200, stp_dir, NULL, &stp_trigger_fops);
	return 0;
}

static void __exit stp_testmod_exit(void)
{
	debugfs_remove_recursive(stp_dir);
}

module_init(stp_testmod_init);
module_exit(stp_testmod_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("debuginfo for the DWARF probe tests");
