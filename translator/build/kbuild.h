// Pass 4: builds the generated C into NAME.ko with the kernel's Kbuild.
#pragma once
#include "util/diag.h"

#include <string>
#include <vector>

namespace stap::build {

struct KbuildRecipe;

struct KbuildJob {
  std::string module_name;  // NAME: the module is DIR/NAME.ko
  std::string dir;          // a scratch directory that holds the sources
  std::string c_source;     // the generated C
  std::string kernel_build_dir; // /lib/modules/RELEASE/build
  std::string runtime_dir;  // runtime/
  std::string unwind_dir;   // unwind/: its *.c are linked into every runtime
  std::vector<std::string> defines; // -D NAME[=VALUE]
  bool verbose = false;     // show the compiler's commands and output
  // Binary data linked into the module's .rodata (the unwind tables of -d
  // objects), each 8-aligned under a global symbol the C declares `extern`:
  // written to DIR/NAME_blobN.bin and included by DIR/NAME_uobjects.S with
  // `.incbin`, far faster to build than the same bytes as C arrays.
  struct Blob {
    std::string symbol;
    const std::vector<unsigned char> *bytes;
  };
  std::vector<Blob> blobs;
  // A runtime object built by build_runtime_object() for the same kernel,
  // runtime and defines: linked as is instead of compiling the runtime.
  std::string prebuilt_runtime;
  // Kbuild's own make spends most of a small build evaluating the kernel's
  // top Makefile (dozens of compiler checks). With `capture_env`, the full
  // make also saves the environment it hands its sub-makes in
  // DIR/.kbuild.env; a later build given that file as `replay_env` runs the
  // three sub-makes (build, modpost, modfinal) directly with it, and falls
  // back to the full make if they fail.
  bool capture_env = false;
  std::string replay_env;
  // Pass 4 without make (direct_build.h): the commands recorded from an
  // earlier Kbuild build of this kernel, tried first (not with `verbose`),
  // and the kernel's precompiled header for them ("" for none). With
  // `record_recipe`, a build by Kbuild writes its commands to
  // DIR/.stap_recipe (kbuild_recipe.h's text form).
  const KbuildRecipe *recipe = nullptr;
  std::string pch_header;
  bool record_recipe = false;
};

// Our ccflags-y (runtime include paths, kbuild_cflags(), each -D) as they
// appear on Kbuild's compile line.
std::string kbuild_ccflags_text(const KbuildJob &job);

// The compiler flags every module and runtime object is built with (part
// of the cache keys).
const char *kbuild_cflags();

// unwind/ beside a runtime directory (the runtime includes "unwind.h").
std::string unwind_dir_for(const std::string &runtime_dir);

// The kernel build directory for `release` (a release name such as
// 6.1.0-56-amd64, or a path to a build tree), or "" with `err` set.
std::string kernel_build_dir(const std::string &release, std::string &err);

// Writes the sources and Kbuild file and runs make. Returns the .ko path,
// or "" after reporting the compiler's output to `diag`. `how`, if given,
// is set to how it was built: "recorded commands" (with or without "and
// the precompiled header"), "Kbuild's sub-makes" or "Kbuild's make".
std::string build_module(const KbuildJob &job, Diagnostics &diag, std::string *how = nullptr);

// Compiles only the runtime (job.c_source and module_name are unused) into
// JOB.dir/stp_runtime.o, for later modules to link. Returns its path, or
// "" after reporting the compiler's output.
std::string build_runtime_object(const KbuildJob &job, Diagnostics &diag);

} // namespace stap::build
