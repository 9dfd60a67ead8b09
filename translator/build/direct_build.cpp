#include "build/direct_build.h"

#include "util/run_child.h"
#include "util/file_text.h"

#include <filesystem>
#include <fstream>
#include <sys/stat.h>

namespace fs = std::filesystem;

namespace stap::build {
namespace {

// Runs one step with /bin/sh from the kernel's build directory, as make
// does (the commands use paths relative to it: scripts/, tools/, arch/).
bool run_step(const std::string &cmd, const std::string &cwd, std::string &log) {
  ChildResult r = run_child({"/bin/sh", "-c", cmd}, true, nullptr, cwd);
  log += "$ " + cmd + "\n" + r.output;
  return r.status == 0;
}

} // namespace

std::string build_direct(const KbuildJob &job, const KbuildRecipe &recipe,
                         const std::string &pch_header, std::string &log) {
  if (job.prebuilt_runtime.empty() || (!job.blobs.empty() && recipe.as_blobs.empty()))
    return {};
  const std::string &name = job.module_name;
  const std::string dir = job.dir + "/direct";
  std::error_code ec;
  fs::remove_all(dir, ec);
  fs::create_directories(dir, ec);
  if (ec)
    return {};
  RecipeValues v{dir, name, kbuild_ccflags_text(job), pch_header, ""};
  auto object = [&](const std::string &suffix) { return dir + "/" + name + suffix; };

  // The inputs, and for each object the .cmd file modpost reads.
  std::vector<std::string> objects = {object("_src.o"), object("_runtime.o")};
  bool ok = write_file(object("_src.c"), job.c_source);
  fs::copy_file(job.prebuilt_runtime, object("_runtime.o"), ec);
  ok = ok && !ec;
  if (!job.blobs.empty()) {
    fs::copy_file(job.dir + "/" + name + "_uobjects.S", object("_uobjects.S"), ec);
    ok = ok && !ec;
    objects.push_back(object("_uobjects.o"));
  }
  std::string mod_list;
  for (const auto &o : objects) {
    mod_list += o + "\n";
    fs::path p(o);
    ok = ok && write_file((p.parent_path() / ("." + p.filename().string() + ".cmd")).string(),
                          "cmd_" + o + " := built by stap from a recorded Kbuild recipe\n");
  }
  ok = ok && write_file(object(".mod"), mod_list) &&
       write_file(dir + "/modules.order", object(".ko") + "\n");
  if (!ok)
    return {};

  // Each compile starts from the precompiled header, with the module's
  // KBUILD_* macros defined in a file included after it.
  auto compile = [&](const std::string &tmpl, const std::string &defs_file) {
    if (pch_header.empty())
      return instantiate(tmpl, v);
    std::string defs;
    std::string cmd = with_pch(tmpl, defs);
    RecipeValues w = v;
    w.defs = defs_file;
    if (!write_file(defs_file, instantiate(defs, w)))
      return std::string("false");
    return instantiate(cmd, w);
  };
  std::vector<std::string> steps = {compile(recipe.cc_src, object("_src.defs.h"))};
  if (!job.blobs.empty())
    steps.push_back(instantiate(recipe.as_blobs, v));
  steps.push_back(instantiate(recipe.ld_o, v));
  steps.push_back(instantiate(recipe.modpost, v));
  steps.push_back(compile(recipe.cc_mod, object(".mod.defs.h")));
  steps.push_back(instantiate(recipe.ld_ko, v));
  for (const auto &cmd : steps)
    if (!run_step(cmd, job.kernel_build_dir, log))
      return {};
  struct stat st;
  return stat(object(".ko").c_str(), &st) == 0 ? object(".ko") : std::string();
}

} // namespace stap::build
