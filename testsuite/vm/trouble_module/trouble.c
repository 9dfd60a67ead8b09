// A kernel module that makes trouble on request, to test how the VM runner
// reports it:  insmod trouble.ko warn=1     WARN_ON(1) in its init
//              insmod trouble.ko bug=1      BUG() in its init: an oops, insmod dies
//              insmod trouble.ko hang_s=N   sleeps N s uninterruptibly in its init
#include <linux/bug.h>
#include <linux/delay.h>
#include <linux/module.h>

static int warn;
module_param(warn, int, 0444);
static int bug;
module_param(bug, int, 0444);
static int hang_s;
module_param(hang_s, int, 0444);

static int __init trouble_init(void)
{
	WARN_ON(warn);
	if (bug)
		BUG();
	if (hang_s > 0)
		ssleep(hang_s); /* TASK_UNINTERRUPTIBLE: not even SIGKILL ends insmod */
	pr_info("trouble: loaded (warn=%d bug=%d hang_s=%d)\n", warn, bug, hang_s);
	return 0;
}

static void __exit trouble_exit(void)
{
}

module_init(trouble_init);
module_exit(trouble_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("stap VM runner tests: warnings and hangs on request");
