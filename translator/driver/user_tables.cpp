#include "driver/user_tables.h"

#include "build/content_hash.h"
#include "driver/table_cache.h"
#include "symtab/elf_image.h"

extern "C" {
#include "uw_pack.h"
}

#include "util/systemtap_dir.h"

#include <sstream>
#include <string_view>
#include <zlib.h>

namespace stap {

std::vector<uint8_t> compress_for_module(const std::vector<uint8_t> &raw) {
  uLongf out_len = compressBound(raw.size());
  std::vector<uint8_t> out(out_len);
  if (compress2(out.data(), &out_len, raw.data(), raw.size(), Z_BEST_COMPRESSION) != Z_OK)
    return {};
  out.resize(out_len);
  return out;
}

std::vector<uint8_t> pack_for_module(const std::vector<uint8_t> &table) {
  std::vector<uint8_t> packed = table;
  auto len = static_cast<uw_u32>(packed.size());
  std::vector<uint8_t> scratch(uw_pack_scratch_size(packed.data(), len));
  if (!scratch.empty())
    uw_pack(packed.data(), len, scratch.data());
  return compress_for_module(packed);
}

std::string default_table_cache_dir() { return systemtap_dir() + "/uwtables"; }

namespace {

// Bump when the table builder (translator/symtab), the symbol choice or
// uw_pack() change what a cached entry would hold.
constexpr const char *kTableCacheVersion = "uwt1+pack1+zlib9+unversioned-names 2026-11-25";

// An entry (table_cache.h): the header "RAW_LEN HASH FDES SYMBOLS
// DEBUG_FILE", then the packed bytes.
bool read_entry(const std::string &path, UserTable &t) {
  std::string header;
  if (!read_table_cache(path, header, t.packed))
    return false;
  std::istringstream fields(header);
  size_t fdes = 0, syms = 0;
  std::string debug;
  if (!(fields >> t.table_bytes >> t.hash >> fdes >> syms))
    return false;
  std::getline(fields >> std::ws, debug);
  t.debug_file = debug == "-" ? "" : debug;
  t.stats.fdes = fdes;
  t.stats.symbols = syms;
  t.stats.table_bytes = t.table_bytes;
  return t.hash.size() == 32 && !t.packed.empty();
}

void write_entry(const std::string &path, const UserTable &t) {
  std::ostringstream header;
  header << t.table_bytes << " " << t.hash << " " << t.stats.fdes << " " << t.stats.symbols << " "
         << (t.debug_file.empty() ? "-" : t.debug_file);
  write_table_cache(path, header.str(), t.packed);
}

} // namespace

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
                                          std::string &err, const std::string &debug_root,
                                          const std::string &cache_dir) {
  auto elf = symtab::ElfImage::open_file(obj.host_path, err);
  if (!elf)
    return std::nullopt;
  UserTable t;
  t.target_path = obj.target_path;
  std::string debug = find_debug_file(elf->build_id(), sysroot, debug_root);
  std::string cached;
  if (!cache_dir.empty()) {
    build::ContentHash key;
    key.add(kTableCacheVersion).add_file(obj.host_path);
    if (!debug.empty())
      key.add(debug).add_file(sysroot.host_path(debug));
    cached = table_cache_path(cache_dir, key.hex(), "uwz");
    if (read_entry(cached, t)) {
      t.from_cache = true;
      return t;
    }
    t = UserTable{};
    t.target_path = obj.target_path;
  }
  symtab::TableOptions opts;
  if (!debug.empty()) {
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
  t.table_bytes = t.blob.size();
  t.packed = pack_for_module(t.blob);
  if (t.packed.empty()) {
    err = "cannot compress the table";
    return std::nullopt;
  }
  t.hash = build::ContentHash()
               .add(std::string_view(reinterpret_cast<const char *>(t.blob.data()), t.blob.size()))
               .hex();
  if (!cached.empty())
    write_entry(cached, t);
  return t;
}

} // namespace stap
