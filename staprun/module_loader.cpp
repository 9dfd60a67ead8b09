#include "module_loader.h"
#include "load_errors.h"
#include "util/module_name.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>


namespace staprun {

std::string module_name_of(const std::string &path) { return stap::kernel_module_name(path); }

// Every parameter the module declares has a MODULE_PARM_DESC, which puts
// "parm=NAME:..." into its .modinfo section: a name without one is not a
// global of the script (the kernel would only log and ignore it).
static bool check_param_names(int fd, const std::string &path,
                              const std::vector<std::string> &params, std::string &err) {
  std::string image;
  char buf[65536];
  ssize_t n;
  while ((n = pread(fd, buf, sizeof(buf), static_cast<off_t>(image.size()))) > 0)
    image.append(buf, static_cast<size_t>(n));
  for (const auto &p : params) {
    std::string name = p.substr(0, p.find('='));
    if (image.find("parm=" + name + ":") == std::string::npos) {
      err = "module '" + path + "' has no global '" + name + "' to set";
      return false;
    }
  }
  return true;
}

bool load_module(const std::string &path, const std::vector<std::string> &params,
                 std::string &err) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    err = "cannot open module '" + path + "': " + std::strerror(errno);
    return false;
  }
  if (!check_param_names(fd, path, params, err)) {
    close(fd);
    return false;
  }
  // The kernel splits parameters at spaces unless the value is quoted.
  std::string args;
  for (const auto &p : params) {
    size_t eq = p.find('=');
    std::string arg = p;
    if (eq != std::string::npos && p.find_first_of(" \t") != std::string::npos)
      arg = p.substr(0, eq + 1) + "\"" + p.substr(eq + 1) + "\"";
    args += (args.empty() ? "" : " ") + arg;
  }
  long rc = syscall(SYS_finit_module, fd, args.c_str(), 0);
  int saved = errno;
  close(fd);
  if (rc != 0) {
    err = "cannot load module '" + path + "': " + std::strerror(saved);
    if (saved == EEXIST)
      err += " (a module of that name is already loaded)";
    else if (std::string advice = load_error_advice(saved); !advice.empty())
      err += "\nERROR: " + advice;
    return false;
  }
  return true;
}

bool unload_module(const std::string &name, std::string &err) {
  for (int i = 0; i < 100; ++i) {
    if (syscall(SYS_delete_module, name.c_str(), O_NONBLOCK) == 0)
      return true;
    if (errno != EAGAIN && errno != EBUSY && errno != EWOULDBLOCK)
      break;
    usleep(20000); // a reader may still hold a file open for a moment
  }
  err = "cannot unload module '" + name + "': " + std::strerror(errno);
  return false;
}

std::string module_debugfs_dir(const std::string &name, std::string &err) {
  const std::string root = "/sys/kernel/debug";
  std::string dir = root + "/stap/" + name;
  struct stat st;
  if (stat(dir.c_str(), &st) == 0)
    return dir;
  // debugfs may simply not be mounted yet.
  if (mount("debugfs", root.c_str(), "debugfs", 0, nullptr) != 0 && errno != EBUSY) {
    err = "cannot mount debugfs on " + root + ": " + std::strerror(errno);
    return {};
  }
  if (stat(dir.c_str(), &st) == 0)
    return dir;
  err = "module control files not found in " + dir;
  return {};
}

} // namespace staprun
