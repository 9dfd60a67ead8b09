#include "build/kbuild.h"
#include "util/shell.h"

#include <array>
#include <cstdio>
#include <fstream>
#include <sys/stat.h>
#include <sys/wait.h>

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


// Runs `cmd` through the shell, capturing stdout and stderr together.
int run_capture(const std::string &cmd, std::string &output) {
  FILE *p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p)
    return -1;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0)
    output.append(buf.data(), n);
  int status = pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace

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
  std::string kbuild = "obj-m := " + name + ".o\n" + name + "-y := " + name + "_src.o " +
                       name + "_runtime.o\n" + "ccflags-y := -I" + job.runtime_dir +
                       // a format/argument mismatch in generated code is a bug: fail the build
                       " -Werror=format\n";
  for (const auto &d : job.defines)
    kbuild += "ccflags-y += " + shell_quote("-D" + d) + "\n";
  if (!write_file(job.dir + "/" + name + "_src.c", job.c_source) ||
      !write_file(job.dir + "/" + name + "_runtime.c", "#include \"runtime.c\"\n") ||
      !write_file(job.dir + "/Kbuild", kbuild)) {
    diag.error("cannot write the module sources in " + job.dir);
    return {};
  }
  std::string cmd = "make -C " + shell_quote(job.kernel_build_dir) + " M=" +
                    shell_quote(job.dir) + (job.verbose ? " V=1" : " -s") + " modules";
  std::string output;
  int rc = run_capture(cmd, output);
  std::string ko = job.dir + "/" + name + ".ko";
  struct stat st;
  if (rc != 0 || stat(ko.c_str(), &st) != 0) {
    diag.error("pass 4: building the module failed:\n" + output);
    return {};
  }
  if (job.verbose)
    std::fputs(output.c_str(), stderr);
  return ko;
}

} // namespace stap::build
