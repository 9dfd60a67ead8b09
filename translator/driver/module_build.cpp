#include "driver/module_build.h"

#include "build/kbuild.h"
#include "build/kbuild_recipe.h"
#include "build/kernel_pch.h"
#include "build/prebuilt_runtime.h"
#include "build/runtime_features.h"
#include "codegen/user_objects.h"
#include "util/data_dir.h"
#include "util/file_text.h"

#include <cstdio>
#include <unistd.h>

namespace stap {

ModuleBuild::ModuleBuild(const Options &opts, const Target &target, const std::string &c_source,
                         const std::vector<UserTable> &tables)
    : opts_(opts), target_(target), c_source_(c_source), tables_(tables) {
  inputs_.release = target.release;
  inputs_.arch = target.arch;
  inputs_.kernel_build_dir = target.build_dir;
  inputs_.runtime_dir = opts.runtime_dir.empty() ? data_dir("runtime", STAP_RUNTIME_DIR) : opts.runtime_dir;
  inputs_.defines = opts.defines;
  // User probes fire only in the user's own processes (runtime: stp_privilege_allows_current).
  if (opts.privilege == "stapusr")
    inputs_.defines.push_back("STP_PRIVILEGE_USR");
  inputs_.module_name = opts.module_name;
  for (const UserTable &t : tables)
    inputs_.user_objects.push_back(t.target_path + " " + t.hash +
                                   (t.lines.hash.empty() ? "" : " lines " + t.lines.hash));
  // Kbuild's environment does not depend on the runtime's parts: one
  // saved environment serves every runtime object of a kernel.
  env_key_ = build::runtime_key(inputs_);
  // The runtime parts this C uses: the runtime object is built (and
  // cached) with only those, and the C compiled with the same -Ds.
  for (const std::string &d : build::runtime_features(c_source))
    inputs_.defines.push_back(d);
  runtime_key_ = build::runtime_key(inputs_);
  module_key_ = build::module_key(inputs_, runtime_key_, c_source);
  name_ = opts.module_name.empty() ? "stap_" + module_key_.hex : opts.module_name;
  if (opts.disable_cache || target.build_dir.empty())
    return;
  cache_.emplace(build::default_cache_dir());
  entry_ = cache_->entry(module_key_.hex, "stap_" + module_key_.hex);
  if (opts.poison_cache)
    return;
  std::string why;
  hit_ = in_cache_ = cache_->lookup(*entry_, why);
  if (!why.empty() && opts.verbose)
    std::fprintf(stderr, "Pass 3: ignoring a damaged cache entry: %s\n", why.c_str());
}

std::string ModuleBuild::build(const std::string &scratch_dir, Diagnostics &diag) {
  build::KbuildJob job;
  job.module_name = name_;
  job.dir = scratch_dir;
  job.c_source = c_source_;
  job.kernel_build_dir = target_.build_dir;
  job.runtime_dir = inputs_.runtime_dir;
  job.unwind_dir = build::unwind_dir_for(inputs_.runtime_dir);
  job.defines = inputs_.defines;
  job.verbose = opts_.verbose >= 3;
  for (size_t i = 0; i < tables_.size(); ++i) {
    job.blobs.push_back({codegen::blob_symbol(i), &tables_[i].packed});
    if (!tables_[i].lines.packed.empty())
      job.blobs.push_back({codegen::lines_symbol(i), &tables_[i].lines.packed});
  }
  std::optional<build::CacheEntry> env_entry, recipe_entry;
  build::KbuildRecipe recipe;
  if (cache_) {
    job.prebuilt_runtime = build::prebuilt_runtime(*cache_, runtime_key_, job, opts_.verbose, diag);
    if (job.prebuilt_runtime.empty())
      return {};
    // Kbuild's sub-make environment, saved by the first build for this
    // kernel and runtime (see KbuildJob::replay_env).
    env_entry = cache_->entry(env_key_.hex, "kbuild_env_" + env_key_.hex, "runtime");
    std::string why;
    if (cache_->lookup(*env_entry, why))
      job.replay_env = env_entry->path(".env");
    else
      job.capture_env = true;
    // The commands that build took, for direct builds (KbuildJob::recipe):
    // recorded from a module named by its key, whose name occurs nowhere
    // else in them.
    recipe_entry = cache_->entry(env_key_.hex, "kbuild_recipe_" + env_key_.hex, "runtime");
    if (cache_->lookup(*recipe_entry, why) && build::recipe_from_text(read_file(recipe_entry->path(".recipe")), recipe)) {
      job.recipe = &recipe;
      job.pch_header = build::kernel_pch(*cache_, env_key_, recipe, job.runtime_dir,
                                         job.kernel_build_dir, scratch_dir, opts_.verbose);
      // A recipe from a module without -d tables has no step for them:
      // this module is built by Kbuild, and its recipe replaces that one.
      job.record_recipe = recipe.as_blobs.empty() && !job.blobs.empty() && opts_.module_name.empty();
    } else {
      job.record_recipe = opts_.module_name.empty();
    }
    if (opts_.verbose > 1)
      std::fprintf(stderr, "Pass 4: %s\n",
                   job.recipe ? "running Kbuild's recorded commands"
                   : job.replay_env.empty()
                       ? "running Kbuild's make (saving its sub-make environment)"
                       : ("running Kbuild's sub-makes with " + job.replay_env).c_str());
  }
  std::string how;
  std::string ko = build::build_module(job, diag, &how);
  if (!ko.empty() && opts_.verbose > 1)
    std::fprintf(stderr, "Pass 4: built with %s\n", how.c_str());
  if (ko.empty() || !cache_)
    return ko;
  std::string env_file = scratch_dir + "/.kbuild.env", err;
  if (job.capture_env && access(env_file.c_str(), R_OK) == 0)
    cache_->store(*env_entry, {{".env", env_file}}, env_key_.inputs, err);
  std::string recipe_file = scratch_dir + "/.stap_recipe";
  if (job.record_recipe && access(recipe_file.c_str(), R_OK) == 0)
    cache_->store(*recipe_entry, {{".recipe", recipe_file}}, env_key_.inputs, err);
  if (opts_.verbose > 1)
    std::fprintf(stderr, "Copying \"%s\" to \"%s\"\n", ko.c_str(), entry_->path(".ko").c_str());
  if (!cache_->store(*entry_, {{".ko", ko}, {".c", scratch_dir + "/" + name_ + "_src.c"}},
                     module_key_.inputs, err)) {
    if (opts_.verbose)
      std::fprintf(stderr, "Pass 4: not caching the module: %s\n", err.c_str());
    return ko;
  }
  in_cache_ = true;
  cache_->clean(false, opts_.verbose);
  return ko;
}

} // namespace stap
