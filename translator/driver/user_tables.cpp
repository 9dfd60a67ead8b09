#include "driver/user_tables.h"

#include "build/content_hash.h"
#include "symtab/elf_image.h"

#include <string_view>
#include <zlib.h>

namespace stap {

std::vector<uint8_t> zlib_pack(const std::vector<uint8_t> &bytes) {
  uLongf len = compressBound(bytes.size());
  std::vector<uint8_t> out(len);
  if (compress2(out.data(), &len, bytes.data(), bytes.size(), Z_BEST_COMPRESSION) != Z_OK)
    return {};
  out.resize(len);
  return out;
}

std::string find_debug_file(const std::string &build_id, const Sysroot &sysroot,
                            const std::string &debug_root) {
  if (build_id.size() < 3)
    return {};
  std::string path = debug_root + "/.build-id/" + build_id.substr(0, 2) + "/" +
                     build_id.substr(2) + ".debug";
  auto f = sysroot.resolve(path);
  return f ? f->target_path : std::string();
}

std::optional<UserTable> build_user_table(const UserObject &obj, const Sysroot &sysroot,
                                          std::string &err, const std::string &debug_root) {
  auto elf = symtab::ElfImage::open_file(obj.host_path, err);
  if (!elf)
    return std::nullopt;
  UserTable t;
  t.target_path = obj.target_path;
  symtab::TableOptions opts;
  if (std::string debug = find_debug_file(elf->build_id(), sysroot, debug_root);
      !debug.empty()) {
    std::string debug_err;
    auto dbg = symtab::ElfImage::open_file(sysroot.host_path(debug), debug_err);
    // A debuginfo file of another object (a stale link) would name wrong
    // functions: it must carry the same build-id.
    if (dbg && dbg->build_id() == elf->build_id()) {
      for (auto &s : dbg->function_symbols())
        if (s.from_symtab)
          opts.extra_symbols.push_back(std::move(s));
      t.debug_file = debug;
    }
  }
  t.blob = symtab::build_unwind_table(*elf, err, &t.stats, opts);
  if (t.blob.empty())
    return std::nullopt;
  t.packed = zlib_pack(t.blob);
  if (t.packed.empty()) {
    err = "cannot compress the table";
    return std::nullopt;
  }
  t.hash = build::ContentHash()
               .add(std::string_view(reinterpret_cast<const char *>(t.blob.data()), t.blob.size()))
               .hex();
  return t;
}

} // namespace stap
