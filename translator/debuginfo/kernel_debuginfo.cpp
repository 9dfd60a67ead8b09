#include "debuginfo/kernel_debuginfo.h"

#include "debuginfo/btf_files.h"
#include "debuginfo/btf_reader.h"

#include <chrono>
#include <cstdio>
#include <filesystem>

namespace fs = std::filesystem;

namespace stap::debuginfo {
namespace {

std::string normalized(std::string name) {
  for (char &c : name)
    if (c == '-')
      c = '_';
  return name;
}

// The .ko of module `name` under /lib/modules/RELEASE ("" if none).
std::string find_ko(const std::string &release, const std::string &name) {
  std::string want = normalized(name) + ".ko";
  std::error_code ec;
  for (fs::recursive_directory_iterator i("/lib/modules/" + release, ec), end; !ec && i != end;
       i.increment(ec))
    if (i->path().extension() == ".ko" && normalized(i->path().filename().string()) == want)
      return i->path().string();
  return "";
}

double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

} // namespace

KernelDebuginfo::KernelDebuginfo(const Target &target, const arch::Arch &arch, int verbose)
    : target_(target), arch_(arch), verbose_(verbose) {}

std::string KernelDebuginfo::missing_reason() const {
  return "kernel " + target_.release +
         " has no BTF (CONFIG_DEBUG_INFO_BTF is off) and its DWARF debuginfo is not "
         "installed: install linux-image-" + target_.release + "-dbg";
}

const ObjectTypes *KernelDebuginfo::object(const std::string &module_name, std::string &why) {
  std::string module = module_name == "kernel" ? module_name : normalized(module_name);
  if (auto it = loaded_.find(module); it != loaded_.end()) {
    why = why_[module];
    return it->second.get();
  }
  auto start = std::chrono::steady_clock::now();
  std::unique_ptr<ObjectTypes> obj;
  auto give_up = [&](std::string reason) -> const ObjectTypes * {
    why_[module] = why = std::move(reason);
    loaded_[module] = nullptr;
    return nullptr;
  };
  auto btf_on = target_.config.find("CONFIG_DEBUG_INFO_BTF");
  if (btf_on == target_.config.end() || btf_on->second != "y")
    return give_up(missing_reason());
  std::string reason;
  std::optional<BtfBytes> bytes;
  const BtfTypes *base = nullptr;
  if (module == "kernel") {
    bytes = kernel_btf(target_.release, reason);
  } else {
    std::string kwhy;
    if (!object("kernel", kwhy))
      return give_up(kwhy);
    base = vmlinux_.get();
    std::string ko = find_ko(target_.release, module);
    if (ko.empty())
      return give_up("no module " + module + " in /lib/modules/" + target_.release);
    bytes = elf_btf(ko, reason);
  }
  if (!bytes)
    return give_up(reason);
  auto btf = std::make_shared<BtfTypes>();
  if (!read_btf(bytes->data, base, arch_.long_size, *btf, reason))
    return give_up(bytes->source + ": " + reason);
  obj = std::make_unique<ObjectTypes>();
  obj->types = std::shared_ptr<const TypeTable>(btf, &btf->types);
  obj->functions = btf->functions;
  obj->source = "BTF of " + bytes->source;
  if (verbose_)
    std::fprintf(stderr, "Pass 2: %s types from %s: %zu types, %zu functions, in %.0f ms\n",
                 module.c_str(), obj->source.c_str(), obj->types->size(), obj->functions.size(),
                 ms_since(start));
  if (module == "kernel")
    vmlinux_ = btf;
  const ObjectTypes *result = obj.get();
  loaded_[module] = std::move(obj);
  why_[module].clear();
  return result;
}

std::optional<TypeId> KernelDebuginfo::find_kernel_type(const std::string &c_name,
                                                        std::string &why) {
  const ObjectTypes *k = kernel(why);
  if (!k)
    return std::nullopt;
  auto id = k->types->find(c_name);
  if (!id)
    why = "no type '" + c_name + "' in the " + k->source;
  return id;
}

std::optional<TypeId> KernelDebuginfo::find_kernel_function(const std::string &name,
                                                            std::string &why) {
  const ObjectTypes *k = kernel(why);
  if (!k)
    return std::nullopt;
  auto it = k->functions.find(name);
  if (it == k->functions.end()) {
    why = "no function '" + name + "' in the " + k->source;
    return std::nullopt;
  }
  return it->second;
}

} // namespace stap::debuginfo
