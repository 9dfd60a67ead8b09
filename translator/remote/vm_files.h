// Small file and process helpers shared by the VM runner's parts.
#pragma once

#include <string>
#include <vector>

namespace stap::remote {

// $STAP_VM_CACHE, or /var/cache/stap-vm: unpacked kernels, initramfs
// images, the i386 root.
std::string vm_cache_dir();

// The directory of mkinitrd, mkroot-i386 and the guest's init:
// $STAP_VM_SCRIPTS, or scripts/vm in the source tree.
std::string vm_scripts_dir();

bool path_exists(const std::string &path);
bool is_directory(const std::string &path);

// The whole file, or "" if it cannot be read.
std::string read_text_file(const std::string &path);

// Throws VmError if the file cannot be written.
void write_text_file(const std::string &path, const std::string &text);

// Runs `argv` (searched in PATH) with stderr passed through, and returns
// its stdout with the trailing newline removed. Throws VmError if it fails.
std::string run_for_output(const std::vector<std::string> &argv);

} // namespace stap::remote
