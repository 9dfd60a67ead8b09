#include "build/kbuild.h"
#include "util/run_child.h"
#include "util/shell.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>

namespace stap::build {
namespace {

bool write_file(const std::string &path, const std::string &text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  return static_cast<bool>(f);
}

bool is_dir(const std::string &p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}


// ccflags for the runtime include path, the fixed flags and each -D.
std::string ccflags(const KbuildJob &job) {
  std::string r = std::string("ccflags-y := -I") + job.runtime_dir + " " + kbuild_cflags() + "\n";
  for (const auto &d : job.defines)
    r += "ccflags-y += " + shell_quote("-D" + d) + "\n";
  return r;
}

// `make -C KERNEL M=DIR TARGET`, with the output in `diag` on failure.
bool run_make(const KbuildJob &job, const std::string &target, const std::string &product,
              Diagnostics &diag) {
  ChildResult r = run_child(
      {"make", "-C", job.kernel_build_dir, "M=" + job.dir, job.verbose ? "V=1" : "-s", target},
      true);
  struct stat st;
  if (r.status != 0 || stat(product.c_str(), &st) != 0) {
    diag.error("pass 4: building the module failed:\n" + r.output);
    return false;
  }
  if (job.verbose)
    std::fputs(r.output.c_str(), stderr);
  return true;
}

} // namespace

// A format/argument mismatch in generated code is a bug: fail the build.
const char *kbuild_cflags() { return "-Werror=format"; }

std::string kernel_build_dir(const std::string &release, std::string &err) {
  std::string dir = release.find('/') != std::string::npos
                        ? release
                        : "/lib/modules/" + release + "/build";
  if (!is_dir(dir)) {
    err = "kernel build tree '" + dir + "' not found (install the headers for " + release + ")";
    return {};
  }
  return dir;
}

std::string build_module(const KbuildJob &job, Diagnostics &diag) {
  const std::string &name = job.module_name;
  const std::string runtime = job.dir + "/" + name + "_runtime.o";
  std::string kbuild = "obj-m := " + name + ".o\n" + name + "-y := " + name + "_src.o " +
                       name + "_runtime.o\n" + ccflags(job);
  bool ok = write_file(job.dir + "/" + name + "_src.c", job.c_source) &&
            write_file(job.dir + "/Kbuild", kbuild);
  if (job.prebuilt_runtime.empty()) {
    ok = ok && write_file(job.dir + "/" + name + "_runtime.c", "#include \"runtime.c\"\n");
  } else {
    // Kbuild copies X_shipped to X; modpost then wants X's .cmd file, which
    // only records how X was made.
    std::error_code ec;
    std::filesystem::copy_file(job.prebuilt_runtime, runtime + "_shipped",
                               std::filesystem::copy_options::overwrite_existing, ec);
    ok = ok && !ec &&
         write_file(job.dir + "/." + name + "_runtime.o.cmd",
                    "cmd_" + runtime + " := cp " + job.prebuilt_runtime + " " + runtime + "\n");
  }
  if (!ok) {
    diag.error("cannot write the module sources in " + job.dir);
    return {};
  }
  std::string ko = job.dir + "/" + name + ".ko";
  return run_make(job, "modules", ko, diag) ? ko : std::string();
}

std::string build_runtime_object(const KbuildJob &job, Diagnostics &diag) {
  if (!write_file(job.dir + "/stp_runtime.c", "#include \"runtime.c\"\n") ||
      !write_file(job.dir + "/Kbuild", "obj-m := stp_runtime.o\n" + ccflags(job))) {
    diag.error("cannot write the runtime sources in " + job.dir);
    return {};
  }
  std::string obj = job.dir + "/stp_runtime.o";
  return run_make(job, "stp_runtime.o", obj, diag) ? obj : std::string();
}

} // namespace stap::build
