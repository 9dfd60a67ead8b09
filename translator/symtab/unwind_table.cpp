// Serialises an object's unwind table; layout in docs/unwind.md and
// unwind/uw_table.h. Everything is little-endian and 4-byte aligned.
#include "symtab/unwind_table.h"

#include "symtab/fde_index.h"
#include "symtab/symbol_index.h"

extern "C" {
#include "uw_table.h"
}

#include <elf.h>
#include <map>

namespace stap::symtab {

namespace {

class Writer {
public:
  void u32_at(size_t off, uint32_t v) {
    for (int i = 0; i < 4; ++i)
      buf_[off + i] = static_cast<uint8_t>(v >> (8 * i));
  }
  void u64_at(size_t off, uint64_t v) {
    u32_at(off, static_cast<uint32_t>(v));
    u32_at(off + 4, static_cast<uint32_t>(v >> 32));
  }
  void u32(uint32_t v) {
    buf_.resize(buf_.size() + 4);
    u32_at(buf_.size() - 4, v);
  }
  size_t bytes(const std::vector<uint8_t> &b) {
    size_t at = buf_.size();
    buf_.insert(buf_.end(), b.begin(), b.end());
    return at;
  }
  void align4() { buf_.resize((buf_.size() + 3) & ~size_t(3)); }
  size_t size() const { return buf_.size(); }
  std::vector<uint8_t> &buf() { return buf_; }

private:
  std::vector<uint8_t> buf_;
};

std::vector<uint8_t> bytes_of(const std::optional<ElfSection> &s) {
  return s ? s->bytes : std::vector<uint8_t>{};
}

} // namespace

std::vector<uint8_t> build_unwind_table(const ElfImage &elf, std::string &err,
                                        TableStats *stats,
                                        const TableOptions &opts) {
  uint8_t arch;
  if (elf.machine() == EM_X86_64 && elf.is_64())
    arch = UW_ARCH_X86_64;
  else if (elf.machine() == EM_386)
    arch = UW_ARCH_I386;
  else {
    err = "unsupported machine " + std::to_string(elf.machine());
    return {};
  }
  const unsigned addr_size = arch == UW_ARCH_I386 ? 4 : 8;
  auto eh = opts.eh_frame ? elf.section(".eh_frame") : std::nullopt;
  auto hdr = opts.eh_frame ? elf.section(".eh_frame_hdr") : std::nullopt;
  auto df = opts.debug_frame ? elf.section(".debug_frame") : std::nullopt;
  std::vector<uint8_t> eh_bytes = bytes_of(eh), hdr_bytes = bytes_of(hdr),
                       df_bytes = bytes_of(df);

  CfiInput in;
  in.eh_frame = &eh_bytes;
  in.eh_frame_vaddr = eh ? eh->vaddr : 0;
  in.eh_frame_hdr = hdr ? &hdr_bytes : nullptr;
  in.eh_frame_hdr_vaddr = hdr ? hdr->vaddr : 0;
  in.debug_frame = &df_bytes;
  in.addr_size = addr_size;
  std::vector<FdeEntry> fdes;
  bool used_hdr = false;
  if (!index_fdes(in, fdes, used_hdr, err))
    return {};

  const uint64_t base = elf.load_base();
  std::vector<IndexedSymbol> syms;
  if (opts.symbols) {
    std::vector<ElfSymbol> all = elf.function_symbols();
    all.insert(all.end(), opts.extra_symbols.begin(), opts.extra_symbols.end());
    syms = index_symbols(std::move(all));
  }

  Writer w;
  w.buf().resize(UW_TABLE_HEADER_SIZE);
  // FDE index: entries outside the 4 GiB window above base cannot be
  // expressed and are dropped (they would be garbage CFI anyway).
  size_t fde_off = w.size();
  uint32_t fde_count = 0;
  for (const FdeEntry &e : fdes) {
    if (e.pc < base || e.pc - base > 0xffffffffu)
      continue;
    w.u32(static_cast<uint32_t>(e.pc - base));
    w.u32(e.ref);
    ++fde_count;
  }
  size_t sym_off = w.size();
  uint32_t sym_count = 0;
  std::vector<uint8_t> strings;
  std::map<std::string, uint32_t> string_at;
  for (const IndexedSymbol &s : syms) {
    if (s.start < base || s.start - base > 0xffffffffu || s.size > 0xffffffffu)
      continue;
    auto [it, fresh] = string_at.emplace(s.name, strings.size());
    if (fresh) {
      strings.insert(strings.end(), s.name.begin(), s.name.end());
      strings.push_back(0);
    }
    w.u32(static_cast<uint32_t>(s.start - base));
    w.u32(static_cast<uint32_t>(s.size));
    w.u32(it->second);
    ++sym_count;
  }
  size_t eh_off = w.bytes(eh_bytes);
  w.align4();
  size_t df_off = w.bytes(df_bytes);
  w.align4();
  size_t str_off = w.bytes(strings);
  w.align4();

  w.u32_at(UW_HDR_MAGIC, UW_TABLE_MAGIC);
  w.buf()[UW_HDR_ARCH] = arch;
  w.buf()[UW_HDR_VERSION] = UW_TABLE_VERSION;
  w.buf()[UW_HDR_SIZE] = UW_TABLE_HEADER_SIZE;
  w.u32_at(UW_HDR_TOTAL_LEN, static_cast<uint32_t>(w.size()));
  w.u32_at(UW_HDR_FDE_COUNT, fde_count);
  w.u32_at(UW_HDR_FDE_INDEX, static_cast<uint32_t>(fde_off));
  w.u32_at(UW_HDR_EH_FRAME, static_cast<uint32_t>(eh_off));
  w.u32_at(UW_HDR_EH_FRAME_LEN, static_cast<uint32_t>(eh_bytes.size()));
  w.u32_at(UW_HDR_DEBUG_FRAME, static_cast<uint32_t>(df_off));
  w.u32_at(UW_HDR_DEBUG_FRAME_LEN, static_cast<uint32_t>(df_bytes.size()));
  w.u32_at(UW_HDR_SYM_COUNT, sym_count);
  w.u32_at(UW_HDR_SYMS, static_cast<uint32_t>(sym_off));
  w.u32_at(UW_HDR_STRINGS, static_cast<uint32_t>(str_off));
  w.u32_at(UW_HDR_STRINGS_LEN, static_cast<uint32_t>(strings.size()));
  w.u64_at(UW_HDR_ADDR_BASE, base);
  w.u64_at(UW_HDR_EH_FRAME_VADDR, in.eh_frame_vaddr);

  if (stats) {
    stats->eh_frame_bytes = eh_bytes.size();
    stats->debug_frame_bytes = df_bytes.size();
    stats->fdes = fde_count;
    stats->symbols = sym_count;
    stats->table_bytes = w.size();
    stats->used_eh_frame_hdr = used_hdr;
  }
  return std::move(w.buf());
}

std::vector<uint8_t> build_unwind_table(const std::string &path,
                                        std::string &err, TableStats *stats,
                                        const TableOptions &opts) {
  auto elf = ElfImage::open_file(path, err);
  if (!elf)
    return {};
  return build_unwind_table(*elf, err, stats, opts);
}

} // namespace stap::symtab
