#include "build/kernel_pch.h"

#include "util/file_lock.h"
#include "util/run_child.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace stap::build {
namespace {

std::string header_text(const KbuildRecipe &r, const std::string &runtime_dir) {
  std::string s = "/* Precompiled by stap for direct builds (translator/build/kernel_pch.h). */\n";
  for (const auto &i : r.forced_includes)
    s += "#include \"" + i + "\"\n";
  s += "#include \"" + runtime_dir + "/stp_kernel.h\"\n";
  for (const auto &line : r.mod_c_prelude)
    s += line + "\n";
  return s;
}

} // namespace

std::string kernel_pch(const ModuleCache &cache, const BuildKey &env_key, const KbuildRecipe &recipe,
                       const std::string &runtime_dir, const std::string &kernel_build_dir,
                       const std::string &scratch_dir, int verbose) {
  CacheEntry e = cache.entry(env_key.hex, "kernel_pch_" + env_key.hex, "runtime");
  std::string why;
  if (cache.lookup(e, why))
    return e.path(".h");
  std::error_code ec;
  fs::create_directories(fs::path(e.stem).parent_path(), ec);
  FileLock lock(e.stem + ".lock");
  if (cache.lookup(e, why)) // another stap built it while we waited
    return e.path(".h");
  // Built under the name it will have in the cache: GCC finds NAME.h.gch
  // beside NAME.h, and the header's own path is what -include names.
  fs::create_directories(scratch_dir + "/pch", ec);
  std::string header = scratch_dir + "/pch/" + fs::path(e.stem).filename().string() + ".h";
  std::ofstream(header) << header_text(recipe, runtime_dir);
  RecipeValues v;
  v.pch = header;
  if (verbose > 1)
    std::fprintf(stderr, "Pass 4: precompiling the kernel's headers into \"%s.gch\"\n",
                 e.path(".h").c_str());
  ChildResult r =
      run_child({"/bin/sh", "-c", instantiate(pch_command(recipe), v)}, true, nullptr, kernel_build_dir);
  std::string err;
  if (r.status != 0 ||
      !cache.store(e, {{".h", header}, {".h.gch", header + ".gch"}}, env_key.inputs, err, {".h.gch"})) {
    if (verbose > 1)
      std::fprintf(stderr, "Pass 4: no precompiled header: %s\n",
                   r.status != 0 ? r.output.c_str() : err.c_str());
    return {};
  }
  return e.path(".h");
}

} // namespace stap::build
