#include "load_errors.h"

#include <cerrno>
#include <fstream>
#include <unistd.h>

namespace staprun {
namespace {

// "integrity" from "none [integrity] confidentiality"; "" if none or unknown.
std::string lockdown_mode(const std::string &text) {
  size_t open = text.find('['), close = text.find(']');
  if (open == std::string::npos || close == std::string::npos || close < open)
    return "";
  std::string mode = text.substr(open + 1, close - open - 1);
  return mode == "none" ? "" : mode;
}

const char kUnsigned[] =
    "stap's modules are not signed: sign it with a key the kernel trusts "
    "(scripts/sign-file with a key enrolled by mokutil), turn Secure Boot off "
    "in the firmware, or run the script in a virtual machine with "
    "--remote=qemu://  [man error::pass5]";

} // namespace

std::string load_error_advice(int err, const std::string &lockdown, bool is_root) {
  switch (err) {
  case EPERM: {
    if (!is_root)
      return "loading a kernel module needs root: run stap or staprun as root "
             "(or with sudo)  [man error::pass5]";
    std::string mode = lockdown_mode(lockdown);
    if (!mode.empty())
      return "the kernel is locked down (" + mode +
             ", as under Secure Boot) and loads only signed modules; " + kUnsigned;
    return "the kernel refuses modules: it may be locked down (Secure Boot), or "
           "/proc/sys/kernel/modules_disabled is 1; " +
           std::string(kUnsigned);
  }
  case EKEYREJECTED:
  case ENOKEY:
    return "the kernel loads only modules signed by a key it trusts (module.sig_enforce "
           "or CONFIG_MODULE_SIG_FORCE); " +
           std::string(kUnsigned);
  case ENOEXEC:
    return "the module was built for another kernel: build it for this one "
           "(stap -r $(uname -r), with linux-headers-$(uname -r) installed)  "
           "[man error::pass5]";
  case EINVAL:
    return "the kernel log (dmesg) says why: often a symbol version or vermagic "
           "mismatch, i.e. headers that do not match the running kernel  [man error::pass5]";
  default:
    return "";
  }
}

std::string load_error_advice(int err) {
  std::ifstream in("/sys/kernel/security/lockdown");
  std::string text;
  std::getline(in, text);
  return load_error_advice(err, text, geteuid() == 0);
}

} // namespace staprun
