// What a guest boots besides the kernel: the initramfs, and for the i386
// kernel a 32-bit root; and the qemu command line that puts them together.
#pragma once

#include "remote/vm.h"

#include <string>
#include <vector>

namespace stap::remote {

struct GuestImages {
  std::string initrd;     // scripts/vm/mkinitrd's cached image
  std::string guest_root; // the i386 Debian root; "" when the guest uses the host's root
};

// Builds (or finds in the cache) the images for `target`. Throws VmError.
GuestImages prepare_guest_images(const VmTarget &target);

// The i386 Debian root of i686 guests (scripts/vm/mkroot-i386 builds it the
// first time, about a minute). Throws VmError.
std::string i386_guest_root();

// The mount plan of a guest of `target` (guest_view.h), as its /init reads
// it from the job share's `mounts` file.
std::string guest_mount_plan(const GuestImages &images);

// The qemu command that boots `target` with the job share `share_dir`.
std::vector<std::string> qemu_command(const VmTarget &target, const GuestImages &images,
                                      const std::string &share_dir, const VmOptions &options);

} // namespace stap::remote
