// Where a kernel's BTF is: the .BTF section of the vmlinux packed (xz) in
// /boot/vmlinuz-RELEASE, and of each module's .ko. The vmlinux one takes a
// 30 MB unpack, so it is cached as raw BTF beside the kernel symbol files
// ($SYSTEMTAP_DIR/kernel-symbols/RELEASE.btf).
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace stap::debuginfo {

struct BtfBytes {
  std::string data;   // raw BTF
  std::string source; // "/boot/vmlinuz-6.1.0-56-amd64 (cached in ...)", for -v
};

// The vmlinux BTF of `release`, from the cache or the kernel image;
// nullopt with `why` when there is none.
std::optional<BtfBytes> kernel_btf(const std::string &release, std::string &why);

// The .BTF of an ELF file (a module's .ko, an unpacked vmlinux).
std::optional<BtfBytes> elf_btf(const std::string &path, std::string &why);

// The section `name` of the ELF image `elf` (32- or 64-bit, little-endian).
std::optional<std::string_view> elf_section(std::string_view elf, std::string_view name);

// The ELF image packed in a bzImage (`image`: the file's bytes): the xz
// stream found by its magic, unpacked. nullopt with `why` otherwise.
std::optional<std::string> unpack_kernel_image(std::string_view image, std::string &why);

} // namespace stap::debuginfo
