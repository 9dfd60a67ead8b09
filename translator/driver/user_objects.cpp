#include "driver/user_objects.h"

#include "driver/ldd.h"
#include "symtab/elf_image.h"

#include <cerrno>
#include <cstring>
#include <elf.h>
#include <map>
#include <sys/stat.h>
#include <unistd.h>

namespace stap {

std::string command_program(const std::string &cmd) {
  size_t start = cmd.find_first_not_of(" \t");
  if (start == std::string::npos)
    return {};
  size_t end = cmd.find_first_of(" \t", start);
  std::string word = cmd.substr(start, end == std::string::npos ? end : end - start);
  if (word.size() >= 2 && (word[0] == '\'' || word[0] == '"') && word.back() == word[0])
    word = word.substr(1, word.size() - 2);
  return word;
}

namespace {

struct Node {
  UserObject obj;
  LoaderNode loader;
  int parent = -1;
  std::vector<std::string> needed;
  std::string interpreter;
};

class Resolver {
public:
  Resolver(const UserObjectRequest &req, const Sysroot &sysroot, Diagnostics &diag)
      : req_(req), sysroot_(sysroot), diag_(diag) {}

  // Adds the object `path` names (what: how the user named it, for
  // messages). Returns its index, or -1 after an error.
  int add(const std::string &path, const std::string &what, const std::string &reason,
          int parent) {
    auto f = sysroot_.resolve(path);
    if (!f) {
      error(what, "no such file");
      return -1;
    }
    if (auto it = index_.find(f->target_path); it != index_.end())
      return it->second;
    struct stat st;
    if (stat(f->host_path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
      error(what, "not a regular file");
      return -1;
    }
    if (access(f->host_path.c_str(), R_OK) != 0) {
      error(what, std::string("cannot read it: ") + std::strerror(errno));
      return -1;
    }
    std::string err;
    auto elf = symtab::ElfImage::open_file(f->host_path, err);
    if (!elf) {
      error(what, "not an ELF file");
      return -1;
    }
    if (elf->type() != ET_EXEC && elf->type() != ET_DYN) {
      error(what, "not an executable or shared library");
      return -1;
    }
    bool x86_64 = elf->machine() == EM_X86_64 && elf->is_64();
    bool i386 = elf->machine() == EM_386 && !elf->is_64();
    if (!x86_64 && !i386) {
      error(what, "not an x86_64 or i386 object");
      return -1;
    }
    if (x86_64 && req_.target_arch == "i386") {
      error(what, "a 64-bit object cannot run on the i386 target");
      return -1;
    }
    Node n;
    n.obj = {f->target_path, f->host_path, reason, elf->is_64()};
    n.parent = parent;
    auto dyn = elf->dynamic();
    n.loader = {f->target_path, elf->is_64(), elf->machine(), dyn.rpath, dyn.runpath,
                dyn.has_rpath, dyn.has_runpath};
    n.needed = dyn.needed;
    n.interpreter = elf->interpreter();
    nodes_.push_back(std::move(n));
    index_.emplace(f->target_path, static_cast<int>(nodes_.size() - 1));
    return static_cast<int>(nodes_.size() - 1);
  }

  // --ldd: the interpreter and the libraries of every object, breadth first.
  void add_libraries() {
    for (size_t i = 0; i < nodes_.size(); ++i) {
      const std::string self = nodes_[i].obj.target_path;
      if (!nodes_[i].interpreter.empty())
        add(nodes_[i].interpreter, "--ldd: the program interpreter '" +
                                       nodes_[i].interpreter + "' of '" + self + "'",
            "interpreter of " + self, static_cast<int>(i));
      std::vector<std::string> needed = nodes_[i].needed; // nodes_ grows below
      for (const auto &name : needed) {
        std::vector<const LoaderNode *> chain;
        for (int at = static_cast<int>(i); at >= 0; at = nodes_[at].parent)
          chain.push_back(&nodes_[at].loader);
        std::string tried;
        auto f = find_needed(name, chain, sysroot_, tried);
        if (!f) {
          diag_.error("--ldd: '" + name + "', needed by '" + self +
                      "', not found (searched " + tried + where() + ")");
          continue;
        }
        add(f->target_path, "--ldd: '" + f->target_path + "' (" + name + ")",
            "needed by " + self, static_cast<int>(i));
      }
    }
  }

  std::vector<UserObject> objects() const {
    std::vector<UserObject> out;
    for (const auto &n : nodes_)
      out.push_back(n.obj);
    return out;
  }

private:
  std::string where() const {
    return sysroot_.description().empty() ? "" : "; " + sysroot_.description();
  }
  void error(const std::string &what, const std::string &msg) {
    diag_.error(what + ": " + msg + where());
  }

  const UserObjectRequest &req_;
  const Sysroot &sysroot_;
  Diagnostics &diag_;
  std::vector<Node> nodes_;
  std::map<std::string, int> index_;
};

// A -d argument names a user object when it is a path, or a file in the
// working directory; otherwise it is "kernel" or a kernel module's name.
bool names_user_object(const std::string &arg, const Sysroot &sysroot) {
  // A kernel module's file gives module("NAME") probes its DWARF
  // (dwarf/kernel_debuginfo.h), not user unwind tables.
  if (arg.size() > 3 && arg.compare(arg.size() - 3, 3, ".ko") == 0)
    return false;
  if (arg.find('/') != std::string::npos)
    return true;
  if (arg == "kernel")
    return false;
  auto f = sysroot.resolve(arg);
  struct stat st;
  return f && stat(f->host_path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The -c command's program, looked up in the usual PATH when it has no '/'.
std::string find_program(const std::string &prog, const Sysroot &sysroot) {
  if (prog.empty() || prog.find('/') != std::string::npos)
    return prog;
  for (const char *dir : {"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin",
                          "/bin"}) {
    std::string path = std::string(dir) + "/" + prog;
    if (auto f = sysroot.resolve(path); f && access(f->host_path.c_str(), X_OK) == 0)
      return path;
  }
  return {};
}

} // namespace

bool wants_user_objects(const UserObjectRequest &req) {
  // A name without '/' is a file only in the working directory, which every
  // target sees as the host does.
  for (const auto &a : req.d_args)
    if (names_user_object(a, Sysroot()))
      return true;
  return req.ldd && !req.command.empty();
}

std::vector<UserObject> resolve_user_objects(const UserObjectRequest &req,
                                             const Sysroot &sysroot, Diagnostics &diag) {
  Resolver r(req, sysroot, diag);
  for (const auto &arg : req.d_args)
    if (names_user_object(arg, sysroot))
      r.add(arg, "-d '" + arg + "'", "-d " + arg, -1);
  if (req.ldd && !req.command.empty()) {
    std::string prog = command_program(req.command);
    std::string path = find_program(prog, sysroot);
    if (path.empty())
      diag.warning(SourceLoc{}, "--ldd: cannot find the -c command's program '" + prog +
                                    "'; its libraries are not added");
    else
      r.add(path, "--ldd: the -c command's program '" + prog + "'", "-c " + prog, -1);
  }
  if (req.ldd)
    r.add_libraries();
  return r.objects();
}

} // namespace stap
