// The target kernel's debuginfo for one session: the types and function
// prototypes of vmlinux and of its modules, loaded on first use and kept
// (the driver owns one, probe families and passes reach it through
// probes::ResolveEnv). Today the source is BTF (debuginfo/btf_*.cpp): the
// .BTF of the vmlinux packed in /boot/vmlinuz-RELEASE and of each module's
// .ko, cached beside the kernel symbol files. A DWARF source, where one is
// installed, answers first (see `source` on each answer).
#pragma once
#include "arch/arch.h"
#include "debuginfo/types.h"
#include "driver/target.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

namespace stap::debuginfo {

struct BtfTypes;

// One object's types (vmlinux, or a module's over vmlinux's) and its
// functions by name.
struct ObjectTypes {
  std::shared_ptr<const TypeTable> types;
  std::unordered_map<std::string, TypeId> functions; // name -> its Kind::Func prototype
  std::string source;                                 // "BTF of /boot/vmlinuz-..." for -v
};

class KernelDebuginfo {
public:
  KernelDebuginfo(const Target &target, const arch::Arch &arch, int verbose = 0);

  // The types of "kernel" or of module `module` (its name as in
  // module("NAME"), '-' and '_' alike); nullptr with `why` set when there
  // are none.
  const ObjectTypes *object(const std::string &module, std::string &why);
  const ObjectTypes *kernel(std::string &why) { return object("kernel", why); }

  // A type by C name in the kernel ("struct file", "btf_trace_sched_switch"),
  // nullopt when unknown (for tracepoints and @cast).
  std::optional<TypeId> find_kernel_type(const std::string &c_name, std::string &why);
  // A kernel function's prototype by name.
  std::optional<TypeId> find_kernel_function(const std::string &name, std::string &why);

  // "no BTF in ... : install linux-image-RELEASE-dbg": the error for a use
  // of `$var` when nothing describes the kernel.
  std::string missing_reason() const;

  const Target &target() const { return target_; }
  const arch::Arch &arch() const { return arch_; }

private:
  const Target &target_;
  const arch::Arch &arch_;
  int verbose_;
  std::map<std::string, std::unique_ptr<ObjectTypes>> loaded_; // nullptr: tried, none
  std::map<std::string, std::string> why_;
  std::shared_ptr<BtfTypes> vmlinux_; // whole, for modules' split BTF
};

} // namespace stap::debuginfo
