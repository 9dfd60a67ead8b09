#include "remote/guest_images.h"

#include "remote/guest_view.h"
#include "remote/vm_files.h"
#include "util/progress_line.h"

namespace stap::remote {
namespace {

// -virtfs takes comma-separated options: a comma in a path is doubled.
std::string virtfs_path(const std::string &path) {
  std::string out;
  for (char c : path)
    out += c == ',' ? std::string(",,") : std::string(1, c);
  return out;
}

std::string read_only_share(const std::string &path, const std::string &tag) {
  return "local,path=" + virtfs_path(path) + ",mount_tag=" + tag +
         ",security_model=none,readonly=on,multidevs=remap";
}

} // namespace

std::string i386_guest_root() {
  // Minutes the first time (debootstrap), at once after that.
  ProgressLine progress("building the i386 guest's root with debootstrap (once)");
  std::string root = run_for_output({vm_scripts_dir() + "/mkroot-i386"});
  if (!is_directory(root))
    throw VmError("mkroot-i386 produced no root");
  return root;
}

GuestImages prepare_guest_images(const VmTarget &target) {
  std::string scripts = vm_scripts_dir();
  GuestImages images;
  images.initrd = run_for_output(
      {scripts + "/mkinitrd", target.release, target.arch, target.modules_dir});
  if (target.arch == "i386")
    images.guest_root = i386_guest_root();
  if (!path_exists(images.initrd))
    throw VmError("mkinitrd produced no image for " + target.release);
  return images;
}

std::string guest_mount_plan(const GuestImages &images) {
  return mount_plan_text(GuestView("/", images.guest_root).mount_plan());
}

std::vector<std::string> qemu_command(const VmTarget &target, const GuestImages &images,
                                      const std::string &share_dir, const VmOptions &options) {
  // TCG only: KVM is not available (and hangs) on the machines this runs on.
  std::vector<std::string> cmd = {
      target.arch == "i386" ? "qemu-system-i386" : "qemu-system-x86_64",
      "-m", std::to_string(options.memory_mb),
      "-smp", std::to_string(options.cpus),
      // Several vCPUs share one host thread (round-robin TCG): with one
      // thread per vCPU (qemu 7.2's default), a vCPU can keep executing a
      // stale translation of kernel text that another vCPU live-patched
      // (ftrace arming a kprobe): an int3 no longer in memory, re-executed
      // forever (soft lockups at the patched site, docs/reliability.md).
      "-accel", options.cpus > 1 || options.icount ? "tcg,thread=single" : "tcg",
      "-nographic", "-no-reboot",
      "-kernel", target.vmlinuz,
      "-initrd", images.initrd,
      // panic=-1 and -no-reboot: a panicking guest ends qemu at once.
      // cryptomgr.notests saves seconds of self-tests under TCG.
      // no_timer_check: on a loaded host the emulated IO-APIC timer can
      // miss the boot-time check, and the kernel panics ("IO-APIC + timer
      // doesn't work!"); the check is for broken hardware, not for qemu.
      "-append", "console=ttyS0 quiet panic=-1 cryptomgr.notests noisapnp no_timer_check" +
                     (options.kernel_args.empty() ? "" : " " + options.kernel_args),
      "-virtfs", read_only_share("/", "hostroot"),
  };
  if (options.icount)
    cmd.insert(cmd.end(), {"-icount", "shift=0,sleep=off"});
  if (options.forward_tcp.empty()) {
    cmd.insert(cmd.end(), {"-nic", "none"}); // no network, and no iPXE option ROM to load
  } else {
    // Only the forwarded ports, only on the host's loopback; romfile= empty:
    // the kernel is booted directly, no network boot ROM is needed.
    std::string netdev = "user,id=n0,restrict=on";
    for (auto [host, guest] : options.forward_tcp)
      netdev += ",hostfwd=tcp:127.0.0.1:" + std::to_string(host) + "-:" + std::to_string(guest);
    cmd.insert(cmd.end(), {"-netdev", netdev, "-device", "virtio-net-pci,netdev=n0,romfile="});
  }
  if (!images.guest_root.empty())
    cmd.insert(cmd.end(), {"-virtfs", read_only_share(images.guest_root, "guestroot")});
  cmd.insert(cmd.end(), {"-virtfs", "local,path=" + virtfs_path(share_dir) +
                                        ",mount_tag=jobs,security_model=none"});
  return cmd;
}

} // namespace stap::remote
