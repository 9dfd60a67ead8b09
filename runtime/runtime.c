/* The runtime, compiled as one translation unit and linked with each
 * generated module. The parts are included in dependency order; each keeps
 * its state static so nothing leaks into the kernel's namespace. Only the
 * parts the module uses are compiled in (stp_features.h). */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/atomic.h>
#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/wait.h>
#include <linux/timer.h>
#include <linux/debugfs.h>
#include <linux/uaccess.h>
#include <linux/poll.h>
#include <linux/fs.h>
#include <linux/random.h>
#include <linux/cred.h>
#include <linux/jhash.h>
#include <linux/stringhash.h>
#include <linux/hash.h>
#include <linux/list.h>
#include <linux/cpu.h>
#include <linux/perf_event.h>

#include "stp_runtime.h"
#include "transport/ring.h"

#include "session_state.c"
#include "transport/control.c"
#include "transport/transport.c"
#include "context.c"
#include "format.c"
#ifdef STP_FEATURE_REGEX
#include "regex.c"
#endif
#include "params.c"
#ifdef STP_FEATURE_MAPS
#include "map.c"
#endif
#ifdef STP_FEATURE_MODSECT
#include "module_sections.c"
#endif
#ifdef STP_FEATURE_STATS
#include "stat.c"
#endif
#include "probes/begin_end.c"
#include "probes/kinds.c"
#ifdef STP_FEATURE_USER
#include "task/elf_table.c"
#include "task/line_table.c"
#include "task/vdso.c"
#include "task/vma_map.c"
#include "task/task_finder.c"
#include "stack/ustack.c"
#include "stack/kstack.c"
#else
/* The session's calls into the task finder and VMA tracker, without them. */
static inline int stp_tf_start(void) { return 0; }
static inline void stp_tf_stop(void) {}
static inline void stp_vma_free_all(void) {}
#endif
#include "transport/debugfs.c"
#include "session.c"

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("stap probe module");
