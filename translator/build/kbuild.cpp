#include "build/kbuild.h"
#include "util/run_child.h"
#include "util/shell.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <fstream>
#include <sys/stat.h>

extern char **environ;

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
  std::string r = std::string("ccflags-y := -I") + job.runtime_dir + " ";
  if (!job.unwind_dir.empty())
    r += "-I" + job.unwind_dir + " ";
  r += std::string(kbuild_cflags()) + "\n";
  for (const auto &d : job.defines)
    r += "ccflags-y += " + shell_quote("-D" + d) + "\n";
  return r;
}

// unwind/'s sources as objects of the runtime: one DIR/uw_NAME.c per
// unwind/uw_NAME.c that includes it (Kbuild compiles only files under M=).
// Returns " uw_a.o uw_b.o ...", or "" without an unwind directory; false
// if a file cannot be written.
bool write_unwind_parts(const KbuildJob &job, std::string &objects) {
  objects.clear();
  if (job.unwind_dir.empty())
    return true;
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto &e : std::filesystem::directory_iterator(job.unwind_dir, ec)) {
    std::string n = e.path().filename().string();
    if (e.is_regular_file() && n.rfind("uw_", 0) == 0 && n.size() > 2 &&
        n.compare(n.size() - 2, 2, ".c") == 0)
      names.push_back(n);
  }
  if (ec)
    return false;
  std::sort(names.begin(), names.end());
  for (const auto &n : names) {
    if (!write_file(job.dir + "/" + n, "#include \"" + job.unwind_dir + "/" + n + "\"\n"))
      return false;
    objects += " " + n.substr(0, n.size() - 2) + ".o";
  }
  return true;
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

// NUL-separated NAME=VALUE pairs, as `env -0` writes them.
std::vector<std::string> read_env(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<std::string> env;
  std::string kv;
  while (std::getline(in, kv, '\0'))
    if (!kv.empty())
      env.push_back(kv);
  return env;
}

// Keeps only what make added, changed ("NAME=VALUE") or removed ("NAME",
// e.g. LC_ALL): the variables stap itself was given (the user's
// environment) are not written into the cache; the replay takes them from
// its own environment instead.
void keep_make_variables(const std::string &path) {
  std::string kept;
  std::map<std::string, bool> seen;
  for (const auto &kv : read_env(path)) {
    size_t eq = kv.find('=');
    if (eq == std::string::npos)
      continue;
    seen[kv.substr(0, eq)] = true;
    const char *mine = std::getenv(kv.substr(0, eq).c_str());
    if (!mine || kv.compare(eq + 1, std::string::npos, mine) != 0)
      kept += kv + '\0';
  }
  for (char **e = environ; *e; ++e) {
    std::string name(*e, std::strcspn(*e, "="));
    if (!seen.count(name))
      kept += name + '\0';
  }
  std::ofstream(path, std::ios::binary | std::ios::trunc) << kept;
}

void replace_all(std::string &s, const std::string &from, const std::string &to) {
  for (size_t at = 0; !from.empty() && (at = s.find(from, at)) != std::string::npos;
       at += to.size())
    s.replace(at, from.size(), to);
}

// The sub-makes the kernel's top Makefile runs for `make M=DIR modules`,
// with the environment it gave them in an earlier build (its module
// directory renamed to ours). True if they built `ko`.
bool replay_make(const KbuildJob &job, const std::string &ko) {
  std::vector<std::string> env = read_env(job.replay_env);
  std::string old_dir, srctree, objtree;
  for (const auto &kv : env) {
    if (kv.rfind("KBUILD_EXTMOD=", 0) == 0)
      old_dir = kv.substr(14);
    else if (kv.rfind("srctree=", 0) == 0)
      srctree = kv.substr(8);
    else if (kv.rfind("abs_objtree=", 0) == 0)
      objtree = kv.substr(12);
  }
  if (old_dir.empty() || srctree.empty() || objtree.empty())
    return false;
  // Our environment, with make's variables (old module directory renamed)
  // on top.
  std::map<std::string, std::string> merged;
  for (char **e = environ; *e; ++e) {
    std::string kv = *e;
    size_t eq = kv.find('=');
    if (eq != std::string::npos)
      merged[kv.substr(0, eq)] = kv;
  }
  for (auto kv : env) {
    size_t eq = kv.find('=');
    if (eq == std::string::npos) { // make removed it
      merged.erase(kv);
      continue;
    }
    if (kv.rfind("MAKELEVEL=", 0) == 0)
      continue; // make counts its own levels
    replace_all(kv, old_dir, job.dir);
    merged[kv.substr(0, eq)] = kv;
  }
  std::vector<std::string> fixed;
  for (const auto &[name, kv] : merged)
    fixed.push_back(kv);
  const std::string scripts = srctree + "/scripts/";
  const std::vector<std::vector<std::string>> steps = {
      {"make", "-f", scripts + "Makefile.build", "obj=" + job.dir, "need-builtin=1",
       "need-modorder=1"},
      {"make", "-f", scripts + "Makefile.modpost"},
      {"make", "-f", scripts + "Makefile.modfinal"},
  };
  for (const auto &argv : steps)
    if (run_child(argv, true, &fixed, objtree).status != 0)
      return false;
  struct stat st;
  return stat(ko.c_str(), &st) == 0;
}

} // namespace

// A format/argument mismatch in generated code is a bug: fail the build.
const char *kbuild_cflags() { return "-Werror=format"; }

std::string unwind_dir_for(const std::string &runtime_dir) {
  std::error_code ec;
  auto dir = std::filesystem::weakly_canonical(std::filesystem::path(runtime_dir) / ".." / "unwind", ec);
  return ec || !is_dir(dir.string()) ? std::string() : dir.string();
}

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
  // Without a prebuilt runtime object, unwind/ is compiled here too.
  std::string unwind_objects;
  bool ok = job.prebuilt_runtime.empty() ? write_unwind_parts(job, unwind_objects) : true;
  std::string kbuild = "obj-m := " + name + ".o\n" + name + "-y := " + name + "_src.o " +
                       name + "_runtime.o" + unwind_objects + "\n" + ccflags(job);
  if (job.capture_env)
    kbuild += "$(shell env -0 > $(obj)/.kbuild.env)\n";
  ok = ok && write_file(job.dir + "/" + name + "_src.c", job.c_source) &&
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
  if (!job.replay_env.empty() && !job.verbose && replay_make(job, ko))
    return ko;
  if (!run_make(job, "modules", ko, diag))
    return {};
  if (job.capture_env)
    keep_make_variables(job.dir + "/.kbuild.env");
  return ko;
}

std::string build_runtime_object(const KbuildJob &job, Diagnostics &diag) {
  // One object linked (ld -r) from the runtime and unwind/'s parts.
  std::string unwind_objects;
  if (!write_unwind_parts(job, unwind_objects) ||
      !write_file(job.dir + "/stp_runtime_main.c", "#include \"runtime.c\"\n") ||
      !write_file(job.dir + "/Kbuild", "obj-m := stp_runtime.o\nstp_runtime-y := stp_runtime_main.o" +
                                           unwind_objects + "\n" + ccflags(job))) {
    diag.error("cannot write the runtime sources in " + job.dir);
    return {};
  }
  std::string obj = job.dir + "/stp_runtime.o";
  return run_make(job, "stp_runtime.o", obj, diag) ? obj : std::string();
}

} // namespace stap::build
