// The scratch directory of one stap run and the module's name and place.
#pragma once
#include "driver/options.h"
#include "util/diag.h"

#include <string>

namespace stap {

class SessionFiles {
public:
  // Creates $TMPDIR/stapXXXXXX for the module `module_name`.
  SessionFiles(const Options &opts, const std::string &module_name, Diagnostics &diag);
  ~SessionFiles(); // removes the directory unless -k
  SessionFiles(const SessionFiles &) = delete;
  SessionFiles &operator=(const SessionFiles &) = delete;

  bool ok() const { return !dir_.empty(); }
  const std::string &dir() const { return dir_; }
  const std::string &module_name() const { return name_; }
  std::string c_path() const { return dir_ + "/" + name_ + "_src.c"; }
  // Where the built module ends up: copied into the current directory
  // for -m, and for -p4 when the cache does not hold it (`cached` is
  // empty), so that it outlives the scratch directory; else the cached
  // copy for -p4, or left where it is. Returns the path.
  std::string publish_module(const std::string &built, const std::string &cached,
                             bool final_pass);

private:
  const Options &opts_;
  std::string dir_, name_;
};

} // namespace stap
