// BTF (the kernel's compact type format, include/uapi/linux/btf.h) into a
// TypeTable. BTF type id N becomes TypeTable id N, so references need no
// mapping; a module's "split" BTF continues its vmlinux's ids and strings,
// and is read over a copy of the vmlinux table.
#pragma once
#include "debuginfo/types.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

namespace stap::debuginfo {

struct BtfTypes {
  TypeTable types;
  std::unordered_map<std::string, TypeId> functions; // FUNC name -> its prototype
  uint32_t string_bytes = 0; // this BTF's string section (split BTF offsets start after it)
  std::string strings;       // vmlinux's string section: split BTF names point into it too
};

// Reads raw BTF (the bytes of a .BTF section). `base`: the vmlinux BTF a
// module's split BTF extends (nullptr for vmlinux). `pointer_size`: the
// target's (BTF pointers carry none). False with `error` on malformed data.
bool read_btf(std::string_view data, const BtfTypes *base, unsigned pointer_size, BtfTypes &out,
              std::string &error);

} // namespace stap::debuginfo
