#include "build/build_key.h"

#include "build/content_hash.h"
#include "build/kbuild.h"

#include <algorithm>
#include <filesystem>

namespace fs = std::filesystem;

namespace stap::build {
namespace {

class KeyWriter {
public:
  void field(const std::string &name, const std::string &value) {
    hash_.add(name).add(value);
    text_ += name + ": " + value + "\n";
  }
  void file(const std::string &name, const std::string &path) {
    std::string h = hash_file(path);
    field(name, (h.empty() ? "missing" : h) + " " + path);
  }
  BuildKey done() const { return {hash_.hex(), text_}; }

private:
  ContentHash hash_;
  std::string text_;
};

// Every file under `dir` (sorted, so the order is stable), by relative
// path and contents.
std::string tree_hash(const std::string &dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec))
    if (it->is_regular_file())
      files.push_back(it->path());
  std::sort(files.begin(), files.end());
  ContentHash h;
  for (const auto &f : files)
    h.add(fs::relative(f, dir).string()).add_file(f.string());
  return h.hex();
}

// The C sources and headers directly in `dir` (unwind/: its tools and
// fuzzers below it are not part of the runtime).
std::string sources_hash(const std::string &dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto &e : fs::directory_iterator(dir, ec)) {
    std::string ext = e.path().extension().string();
    if (e.is_regular_file() && (ext == ".c" || ext == ".h"))
      files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  ContentHash h;
  for (const auto &f : files)
    h.add(f.filename().string()).add_file(f.string());
  return h.hex();
}

} // namespace

BuildKey runtime_key(const BuildInputs &in) {
  KeyWriter k;
  k.field("stap-version", STAP_VERSION);
  k.field("kernel-release", in.release);
  k.field("arch", in.arch);
  std::error_code ec;
  std::string tree = fs::canonical(in.kernel_build_dir, ec).string();
  k.field("kernel-build-tree", tree);
  k.file("kernel-config", tree + "/.config");
  k.file("kernel-autoconf", tree + "/include/generated/autoconf.h");
  k.file("kernel-utsrelease", tree + "/include/generated/utsrelease.h");
  k.field("runtime-sources", tree_hash(in.runtime_dir) + " " + in.runtime_dir);
  std::string unwind = unwind_dir_for(in.runtime_dir);
  k.field("unwind-sources", unwind.empty() ? "none" : sources_hash(unwind) + " " + unwind);
  k.field("kbuild-flags", kbuild_cflags());
  for (const auto &d : in.defines)
    k.field("define", d);
  return k.done();
}

BuildKey module_key(const BuildInputs &in, const BuildKey &runtime, const std::string &c_source) {
  KeyWriter k;
  k.field("runtime-key", runtime.hex);
  std::error_code ec;
  k.file("kernel-symvers", fs::canonical(in.kernel_build_dir, ec).string() + "/Module.symvers");
  k.field("module-name", in.module_name);
  k.field("c-source", ContentHash().add(c_source).hex());
  for (const auto &u : in.user_objects)
    k.field("user-object", u);
  BuildKey key = k.done();
  key.inputs = runtime.inputs + key.inputs;
  return key;
}

} // namespace stap::build
