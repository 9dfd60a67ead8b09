// System call numbers by name for x86_64 and i386, read from the kernel
// UAPI headers installed on the host (asm/unistd_64.h, asm/unistd_32.h).
#pragma once

#include <optional>
#include <string>

namespace ustack {

enum class Abi { X86_64, I386 };

// The number of syscall `name` under abi, or nullopt if there is none.
std::optional<long> syscall_number(Abi abi, const std::string &name);

} // namespace ustack
