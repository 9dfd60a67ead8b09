// FDE indexing; see fde_index.h. Parsing uses unwind/'s own CFI parser so
// the index agrees with what the unwinder will read.
#include "symtab/fde_index.h"

extern "C" {
#include "uw_cfi.h"
#include "uw_eh_hdr.h"
#include "uw_table.h"
}

#include <algorithm>

namespace stap::symtab {

namespace {

uw_cfi_section make_section(const std::vector<uint8_t> &bytes, uint64_t vaddr,
                            bool is_eh, unsigned addr_size) {
  uw_cfi_section s{};
  s.data = bytes.data();
  s.len = static_cast<uw_u32>(bytes.size());
  s.vaddr = vaddr;
  s.is_eh = is_eh;
  s.addr_size = static_cast<uw_u8>(addr_size);
  return s;
}

// Walks every record of a section, collecting its FDEs.
bool walk_section(const uw_cfi_section &s, uint32_t ref_flag,
                  std::vector<FdeEntry> &out, std::string &err) {
  uint32_t off = 0;
  while (off < s.len) {
    int kind;
    uint32_t next;
    if (uw_cfi_record(&s, off, &kind, &next) != 0) {
      err = "malformed CFI record at offset " + std::to_string(off);
      return false;
    }
    if (kind == UW_REC_TERMINATOR && s.is_eh)
      break;
    if (kind == UW_REC_FDE) {
      uw_fde fde;
      if (uw_cfi_parse_fde(&s, off, &fde) != 0) {
        err = "malformed FDE at offset " + std::to_string(off);
        return false;
      }
      if (fde.pc_end > fde.pc_begin)
        out.push_back({fde.pc_begin, fde.pc_end, off | ref_flag});
    }
    off = next;
  }
  return true;
}

// Uses the .eh_frame_hdr table if every entry names a parseable FDE that
// starts where the entry says; otherwise the caller walks .eh_frame.
bool from_hdr(const CfiInput &in, const uw_cfi_section &eh,
              std::vector<FdeEntry> &out) {
  uw_eh_hdr h;
  if (!in.eh_frame_hdr ||
      uw_eh_hdr_open(&h, in.eh_frame_hdr->data(),
                     static_cast<uw_u32>(in.eh_frame_hdr->size()),
                     in.eh_frame_hdr_vaddr, in.addr_size) != 0)
    return false;
  std::vector<FdeEntry> entries;
  for (uint32_t i = 0; i < h.count; ++i) {
    uw_u64 pc, fde_addr;
    uw_fde fde;
    if (uw_eh_hdr_entry(&h, i, &pc, &fde_addr) != 0 ||
        fde_addr < in.eh_frame_vaddr ||
        fde_addr - in.eh_frame_vaddr >= eh.len)
      return false;
    uint32_t off = static_cast<uint32_t>(fde_addr - in.eh_frame_vaddr);
    if (uw_cfi_parse_fde(&eh, off, &fde) != 0 || fde.pc_begin != pc)
      return false;
    if (fde.pc_end > fde.pc_begin)
      entries.push_back({fde.pc_begin, fde.pc_end, off});
  }
  out.insert(out.end(), entries.begin(), entries.end());
  return true;
}

// Is [pc, end) already covered by an entry of the sorted list?
bool covered(const std::vector<FdeEntry> &sorted, uint64_t pc) {
  auto it = std::upper_bound(
      sorted.begin(), sorted.end(), pc,
      [](uint64_t v, const FdeEntry &e) { return v < e.pc; });
  return it != sorted.begin() && pc < std::prev(it)->end;
}

} // namespace

bool index_fdes(const CfiInput &in, std::vector<FdeEntry> &out,
                bool &used_hdr, std::string &err) {
  used_hdr = false;
  if (in.eh_frame && !in.eh_frame->empty()) {
    uw_cfi_section eh =
        make_section(*in.eh_frame, in.eh_frame_vaddr, true, in.addr_size);
    used_hdr = from_hdr(in, eh, out);
    if (!used_hdr && !walk_section(eh, 0, out, err))
      return false;
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const FdeEntry &a, const FdeEntry &b) { return a.pc < b.pc; });
  if (in.debug_frame && !in.debug_frame->empty()) {
    std::vector<FdeEntry> extra;
    uw_cfi_section df = make_section(*in.debug_frame, 0, false, in.addr_size);
    if (!walk_section(df, UW_FDE_REF_DEBUG_FRAME, extra, err))
      return false;
    std::vector<FdeEntry> keep;
    for (const FdeEntry &e : extra)
      if (!covered(out, e.pc))
        keep.push_back(e);
    out.insert(out.end(), keep.begin(), keep.end());
    std::stable_sort(out.begin(), out.end(),
                     [](const FdeEntry &a, const FdeEntry &b) { return a.pc < b.pc; });
  }
  return true;
}

} // namespace stap::symtab
