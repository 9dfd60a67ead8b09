// Running commands in disposable qemu guests booted from an installed
// Debian kernel: the machinery behind --remote=qemu://[RELEASE], the VM
// tests and the stap-vm tool.
//
// One guest boot runs a whole batch of jobs, one after the other; each job
// reports its own stdout, stderr, exit status and kernel log. A job that
// kills or hangs the guest is reported as failed and the jobs after it run
// in a fresh boot. docs/vm.md describes the guest and the share layout.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace stap::remote {

// A kernel a guest can boot.
struct VmTarget {
  std::string release;     // 6.1.0-56-amd64 (uname -r in the guest)
  std::string arch;        // "x86_64" | "i386"
  std::string vmlinuz;     // the kernel image qemu boots
  std::string modules_dir; // its modules: /lib/modules/RELEASE or an unpacked copy
  std::string build_dir;   // its Kbuild tree: /lib/modules/RELEASE/build
};

// The kernels with an image, modules and headers installed: /boot for the
// host's architecture, $STAP_VM_CACHE/kernels/REL/boot for unpacked ones
// (the i386 kernel). The architecture comes from the headers' .config.
// Sorted by version, oldest first.
std::vector<VmTarget> installed_vm_targets();

// The newest installed target of `arch` ("x86_64" or "i386"), if any.
std::optional<VmTarget> default_vm_target(const std::string &arch = "x86_64");

// Resolves "qemu://" (the newest x86_64 kernel) or "qemu://RELEASE".
// On failure returns nothing and sets `error`, naming the installed releases.
std::optional<VmTarget> resolve_qemu_url(const std::string &url, std::string &error);

// The Kbuild tree modules for `release` are built against.
std::string vm_kernel_build_dir(const std::string &release);

// One command to run in the guest.
struct VmJob {
  std::string name;                // for reports only
  std::string command;             // sh command line; cwd = the job's directory
  std::vector<std::string> files;  // host files copied into the job's directory
  int timeout_s = 60;              // killed after this long; 0 = no limit
};

struct VmJobResult {
  std::string name;
  std::string out, err;     // the command's stdout and stderr
  std::string kernel_log;   // dmesg during the job, or the console tail if the guest died
  int exit_status = -1;     // sh's status (128+N for signal N); -1 if it never ended
  bool ran = false;         // it started in a guest
  bool timed_out = false;   // killed at its timeout (or the guest hung past it)
  bool guest_died = false;  // the guest panicked, hung or powered off during it
  bool kernel_problem = false; // oops, BUG, WARNING, panic, Call Trace in its log
  double guest_wall_s = 0;  // how long the command ran, measured in the guest
  int boot = 0;             // which boot of the batch ran it (0-based)
  std::string note;         // why it failed, when the runner knows (for humans)

  // Ran to the end, exit status 0, within its time, with a clean kernel log.
  bool ok() const {
    return ran && !guest_died && !timed_out && !kernel_problem && exit_status == 0;
  }
};

// One guest boot, for timing notes and debugging.
struct VmBoot {
  double host_wall_s = 0;     // qemu start to exit, on the host
  double guest_ready_s = -1;  // guest uptime when its first job started
  int jobs_started = 0;
  std::string end;            // "poweroff" | "died" | "hung" | "no jobs started"
  std::string console_log;    // path of the serial console log (kept with `keep`)
};

struct VmBatchResult {
  std::vector<VmJobResult> jobs; // one per job, in order
  std::vector<VmBoot> boots;
  std::string work_dir;          // the share directory, if kept
};

struct VmOptions {
  // staprun binaries copied into the guest's PATH as `staprun` when they exist:
  // the x86_64 build for x86_64 guests, the static 32-bit one for i386 guests.
  std::string staprun_x86_64, staprun_i386;
  int memory_mb = 512;
  int cpus = 1;
  int boot_timeout_s = 180;  // from qemu start to the first job starting
  int hang_margin_s = 30;    // past a job's timeout before the guest is killed
  bool keep = false;         // keep the work directory (share + console logs)
  std::string tmp_dir;       // where the work directory goes; default $TMPDIR or /tmp
  std::string kernel_args;   // appended to the kernel command line
  // The guest's clock counts executed instructions (qemu -icount, 1 ns
  // each) instead of following the host's: what a benchmark measures in
  // the guest is then the instructions it ran, the same whatever else
  // the host does (bench/run/context-variants).
  bool icount = false;
  // TCP ports of the host's loopback (127.0.0.1) forwarded to the guest's
  // ports, {host, guest}: the guest then has a virtio NIC on qemu's user
  // network with `restrict=on` (no other traffic in or out). Jobs bring it
  // up themselves (the ssh test: modprobe virtio_net, 10.0.2.15/24).
  std::vector<std::pair<int, int>> forward_tcp;
  bool verbose = false;      // progress on stderr
};

// Failures of the machinery itself (no qemu, no initramfs, bad job files).
struct VmError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Runs `jobs` in as few boots of `target` as possible. Throws VmError when
// no guest can be started at all.
VmBatchResult run_vm_batch(const VmTarget &target, const std::vector<VmJob> &jobs,
                           const VmOptions &options = {});

// Does this kernel log show a kernel problem (oops, BUG, WARNING, panic, ...)?
bool has_kernel_problem(const std::string &kernel_log);

} // namespace stap::remote
