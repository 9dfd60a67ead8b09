/* Module parameters for script globals (-G name=value, staprun name=value):
 * numbers as s64 (the kernel's `long` is 32-bit on i686), strings into
 * their MAXSTRINGLEN buffers. The generated code declares one
 * module_param_cb per scalar global with these ops. */

static int stp_param_set_s64(const char *val, const struct kernel_param *kp)
{
	return kstrtos64(val, 0, (s64 *)kp->arg);
}

static int stp_param_get_s64(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%lld\n", (long long)*(s64 *)kp->arg);
}

static int stp_param_set_str(const char *val, const struct kernel_param *kp)
{
	if (strlen(val) >= MAXSTRINGLEN)
		return -ENOSPC;
	strscpy((char *)kp->arg, val, MAXSTRINGLEN);
	return 0;
}

static int stp_param_get_str(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%s\n", (const char *)kp->arg);
}

const struct kernel_param_ops stp_param_ops_s64 = {
	.set = stp_param_set_s64,
	.get = stp_param_get_s64,
};

const struct kernel_param_ops stp_param_ops_str = {
	.set = stp_param_set_str,
	.get = stp_param_get_str,
};

/* -v given to staprun (stack.h): backtraces say why they stop. A module
 * without backtraces still takes the parameter staprun always passes. */
int stp_verbose;
module_param_named(_stp_verbose, stp_verbose, int, 0444);
MODULE_PARM_DESC(_stp_verbose, "staprun -v: report why backtraces stop");

/* stap --remote: which host of the command line this session runs on
 * (remote_id(), remote_uri() in tapsets/context.stp); -1 and "" here. */
int stp_remote_id = -1;
module_param_named(_stp_remote_id, stp_remote_id, int, 0444);
MODULE_PARM_DESC(_stp_remote_id, "stap --remote: this host's index");
char stp_remote_uri[MAXSTRINGLEN];
module_param_string(_stp_remote_uri, stp_remote_uri, sizeof(stp_remote_uri), 0444);
MODULE_PARM_DESC(_stp_remote_uri, "stap --remote: this host's URL");
