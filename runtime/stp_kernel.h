/* The kernel headers every module includes, first: stp_runtime.h starts
 * with them, and pass 4 precompiles them once per kernel (with Kbuild's
 * forced includes and those of Kbuild's NAME.mod.c) into the header that
 * both of a module's compiles start from (translator/build/kernel_pch.cpp,
 * docs/build.md). So nothing here may depend on the runtime's -D switches
 * (STP_FEATURE_*, the limits) or on the module's name. */
#ifndef STP_KERNEL_H
#define STP_KERNEL_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/string.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/spinlock.h>
#include <linux/sched.h>
#include <linux/cred.h>
#include <linux/pid_namespace.h>
#include <linux/user_namespace.h>
#include <linux/smp.h>
#include <linux/jiffies.h>
#include <linux/overflow.h>
#include <linux/vmalloc.h>
#include <linux/timekeeping.h>
#include <linux/hrtimer.h>
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/moduleparam.h>

#endif /* STP_KERNEL_H */
