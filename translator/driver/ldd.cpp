#include "driver/ldd.h"

#include "symtab/elf_image.h"

#include <cctype>

namespace stap {
namespace {

std::vector<std::string> split_path_list(const std::string &list) {
  std::vector<std::string> out;
  size_t at = 0;
  while (at <= list.size()) {
    size_t colon = list.find(':', at);
    if (colon == std::string::npos)
      colon = list.size();
    // An empty entry means the working directory to the loader; for an
    // object loaded by a process we cannot see, it names nothing useful.
    if (colon > at)
      out.push_back(list.substr(at, colon - at));
    at = colon + 1;
  }
  return out;
}

std::string dirname_of(const std::string &path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos)
    return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

void replace_token(std::string &s, const std::string &token, const std::string &value) {
  for (const std::string &form : {"${" + token + "}", "$" + token}) {
    size_t at = 0;
    while ((at = s.find(form, at)) != std::string::npos) {
      // "$ORIGINAL" is not "$ORIGIN" followed by "AL".
      size_t end = at + form.size();
      if (form[1] != '{' && end < s.size() &&
          (std::isalnum(static_cast<unsigned char>(s[end])) || s[end] == '_')) {
        at = end;
        continue;
      }
      s.replace(at, form.size(), value);
      at += value.size();
    }
  }
}

// The loader accepts a candidate only if it is an ELF object of the same
// class and machine as the one that needs it.
bool loadable_for(const std::string &host_path, const LoaderNode &needer) {
  std::string err;
  auto elf = symtab::ElfImage::open_file(host_path, err);
  return elf && elf->is_64() == needer.is_64 && elf->machine() == needer.machine;
}

} // namespace

std::vector<std::string> system_library_dirs(bool is_64) {
  if (is_64)
    return {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64",
            "/lib", "/usr/lib"};
  return {"/lib/i386-linux-gnu", "/usr/lib/i386-linux-gnu", "/lib32", "/usr/lib32", "/lib",
          "/usr/lib"};
}

std::string expand_search_dir(const std::string &dir, const std::string &origin, bool is_64) {
  std::string s = dir;
  replace_token(s, "ORIGIN", origin);
  replace_token(s, "LIB", is_64 ? "lib/x86_64-linux-gnu" : "lib/i386-linux-gnu");
  return s;
}

std::optional<Sysroot::File> find_needed(const std::string &name,
                                         const std::vector<const LoaderNode *> &chain,
                                         const Sysroot &sysroot, std::string &tried) {
  tried.clear();
  if (chain.empty())
    return std::nullopt;
  const LoaderNode &needer = *chain.front();
  auto try_file = [&](const std::string &path) -> std::optional<Sysroot::File> {
    auto f = sysroot.resolve(path);
    if (f && loadable_for(f->host_path, needer))
      return f;
    return std::nullopt;
  };
  if (name.find('/') != std::string::npos)
    return try_file(expand_search_dir(name, dirname_of(needer.target_path), needer.is_64));

  std::vector<std::string> dirs;
  auto add = [&](const LoaderNode &n, const std::string &list) {
    for (const auto &d : split_path_list(list))
      dirs.push_back(expand_search_dir(d, dirname_of(n.target_path), n.is_64));
  };
  if (!needer.has_runpath)
    for (const LoaderNode *n : chain)
      if (n->has_rpath && !n->has_runpath)
        add(*n, n->rpath);
  if (needer.has_runpath)
    add(needer, needer.runpath);
  for (const auto &d : system_library_dirs(needer.is_64))
    dirs.push_back(d);

  for (const auto &d : dirs) {
    tried += (tried.empty() ? "" : ":") + d;
    if (auto f = try_file(d + "/" + name))
      return f;
  }
  return std::nullopt;
}

} // namespace stap
