// What a module depends on, hashed into the keys of the module cache and
// of the prebuilt runtime object. Each key also has a readable form (one
// "name: value" line per input), kept in the cache entry's _hash.log.
#pragma once
#include <string>
#include <vector>

namespace stap::build {

struct BuildInputs {
  std::string release;          // 6.1.0-56-amd64
  std::string arch;             // x86_64 | i386
  std::string kernel_build_dir; // /lib/modules/RELEASE/build
  std::string runtime_dir;      // runtime/
  std::vector<std::string> defines; // -D NAME[=VALUE], in command-line order
  std::string module_name;      // -m NAME, "" when the key names the module
  // The user objects whose unwind tables the module carries (-d, --ldd):
  // "TARGET_PATH TABLE_HASH" each, so a changed library rebuilds the module.
  std::vector<std::string> user_objects;
};

struct BuildKey {
  std::string hex;    // 32 hex digits
  std::string inputs; // "name: value\n" lines
};

// The runtime object: the kernel (release, arch, build tree's config and
// generated headers), the runtime's sources, the compiler flags and every
// -D (the runtime reads MAXSTRINGLEN, MAXMAPENTRIES, MAXTRYLOCK...).
BuildKey runtime_key(const BuildInputs &in);

// A module: the runtime key plus the generated C, the kernel's symbol
// versions (Module.symvers), the -m name and the user objects' tables.
BuildKey module_key(const BuildInputs &in, const BuildKey &runtime, const std::string &c_source);

} // namespace stap::build
