/* The parts of the runtime a module is built with.
 *
 * The translator compiles the runtime once per kernel and per set of
 * parts, and links the module with it (docs/build.md): a script gets only
 * the parts its C uses (translator/build/runtime_features.cpp reads them
 * off the generated C), so `probe begin { print("hi") }` carries no task
 * finder, unwinder, maps or kprobes. Each part is a -D the runtime and the
 * generated C are both compiled with:
 *
 *   STP_FEATURES            a selection follows (without it: every part,
 *                           for a runtime built by hand)
 *   STP_FEATURE_MAPS        associative arrays (map.c)
 *   STP_FEATURE_STATS       statistics (stat.c)
 *   STP_FEATURE_REGEX       =~ (regex.c)
 *   STP_FEATURE_MODSECT     addresses of other modules' sections
 *   STP_FEATURE_USER        the task finder, VMA tracker, unwind tables,
 *                           user and kernel backtraces and symbols
 *                           (task/, stack/, unwind/)
 *   STP_FEATURE_KPROBE ... STP_FEATURE_TIMER: one per probe kind
 *                           (probes/kinds.h)
 *   STP_FEATURE_PERF_TASK   perf events bound to tasks, @perf
 *                           (probes/perf_task.c)
 *
 * Leaving a part out also leaves out its declarations, so C that uses a
 * part it was not built with does not compile (implicit declarations are
 * errors in Kbuild) instead of linking a module that lacks it. */
#ifndef STP_FEATURES_H
#define STP_FEATURES_H

#ifndef STP_FEATURES
#define STP_FEATURE_MAPS
#define STP_FEATURE_STATS
#define STP_FEATURE_REGEX
#define STP_FEATURE_MODSECT
#define STP_FEATURE_USER
#define STP_FEATURE_KPROBE
#define STP_FEATURE_TRACEPOINT
#define STP_FEATURE_UPROBE
#define STP_FEATURE_PROC
#define STP_FEATURE_PERF
#define STP_FEATURE_PERF_TASK
#define STP_FEATURE_TIMER
#define STP_FEATURE_PROCFS
#define STP_FEATURE_NETFILTER
#define STP_FEATURE_HWBKPT
#endif

/* What parts need of each other. */
#if defined(STP_FEATURE_MAPS) && !defined(STP_FEATURE_STATS)
#define STP_FEATURE_STATS /* arrays of statistics */
#endif
#if defined(STP_FEATURE_KPROBE) && !defined(STP_FEATURE_MODSECT)
#define STP_FEATURE_MODSECT /* .callee(): call sites in modules */
#endif
#if defined(STP_FEATURE_PERF_TASK) && !defined(STP_FEATURE_PERF)
#define STP_FEATURE_PERF /* its probes are perf's */
#endif
#if defined(STP_FEATURE_PERF_TASK) && !defined(STP_FEATURE_UPROBE)
#define STP_FEATURE_UPROBE /* PATH's inode, the target's tree: as uprobes find them */
#endif
#if defined(STP_FEATURE_PROC) && !defined(STP_FEATURE_UPROBE)
#define STP_FEATURE_UPROBE /* process("PATH") probes find PATH's inode as uprobes do */
#endif
#if defined(STP_FEATURE_UPROBE) && !defined(STP_FEATURE_USER)
#define STP_FEATURE_USER /* uprobes are armed by the task finder */
#endif

#endif /* STP_FEATURES_H */
