// Test helper: assembles .eh_frame / .debug_frame bytes (one CIE, FDEs),
// register sets and a fake stack, so unit tests can state CFI programs
// opcode by opcode.
#pragma once

extern "C" {
#include "uw_cfi.h"
#include "uw_table.h"
}

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

using Bytes = std::vector<uint8_t>;

inline void put_uleb(Bytes &b, uint64_t v) {
  do {
    uint8_t byte = v & 0x7f;
    v >>= 7;
    b.push_back(byte | (v ? 0x80 : 0));
  } while (v);
}
inline void put_sleb(Bytes &b, int64_t v) {
  for (;;) {
    uint8_t byte = v & 0x7f;
    v >>= 7;
    bool done = (v == 0 && !(byte & 0x40)) || (v == -1 && (byte & 0x40));
    b.push_back(byte | (done ? 0 : 0x80));
    if (done)
      return;
  }
}
inline void put_le(Bytes &b, uint64_t v, int n) {
  for (int i = 0; i < n; ++i)
    b.push_back(uint8_t(v >> (8 * i)));
}
inline Bytes cat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const Bytes &p : parts)
    out.insert(out.end(), p.begin(), p.end());
  return out;
}

// CIEs, each followed by the FDEs that use it, eh_frame style ("zR", pcrel sdata4
// pointers) or debug_frame style (absolute addresses).
class CfiBuilder {
public:
  CfiBuilder(bool eh, unsigned addr_size, uint64_t vaddr = 0x1000)
      : eh_(eh), addr_size_(addr_size), vaddr_(vaddr) {}

  // augmentation: "zR", "zRS", "zPLR"; ignored for debug_frame.
  void cie(const std::string &aug, const Bytes &insns, int64_t data_align = -8,
           unsigned ra = 16) {
    Bytes body;
    put_le(body, eh_ ? 0 : 0xffffffffu, 4);
    body.push_back(eh_ ? 1 : 3);
    std::string a = eh_ ? aug : "";
    body.insert(body.end(), a.begin(), a.end());
    body.push_back(0);
    put_uleb(body, 1);
    put_sleb(body, data_align);
    put_uleb(body, ra);
    if (eh_) {
      Bytes augdata;
      for (char c : a.substr(1)) {
        if (c == 'R')
          augdata.push_back(0x1b); // pcrel sdata4
        if (c == 'L')
          augdata.push_back(0x1b);
        if (c == 'P') { // indirect pcrel sdata4 personality pointer
          augdata.push_back(0x9b);
          put_le(augdata, 0x100, 4);
        }
      }
      put_uleb(body, augdata.size());
      body.insert(body.end(), augdata.begin(), augdata.end());
    }
    body.insert(body.end(), insns.begin(), insns.end());
    cie_off_ = uint32_t(data_.size()); // later FDEs use this CIE
    record(body);
    has_lsda_ = eh_ && a.find('L') != std::string::npos;
  }

  // Returns the FDE's offset in the section.
  uint32_t fde(uint64_t pc, uint64_t len, const Bytes &insns) {
    uint32_t off = uint32_t(data_.size());
    Bytes body;
    if (eh_) {
      put_le(body, off + 4 - cie_off_, 4); // back to the last CIE
      uint64_t field = vaddr_ + off + 8;
      put_le(body, uint32_t(pc - field), 4);
      put_le(body, len, 4);
      Bytes aug;
      if (has_lsda_)
        put_le(aug, 0, 4);
      put_uleb(body, aug.size());
      body.insert(body.end(), aug.begin(), aug.end());
    } else {
      put_le(body, cie_off_, 4);
      put_le(body, pc, addr_size_);
      put_le(body, len, addr_size_);
    }
    body.insert(body.end(), insns.begin(), insns.end());
    record(body);
    return off;
  }

  uw_cfi_section section() const {
    uw_cfi_section s{};
    s.data = data_.data();
    s.len = uint32_t(data_.size());
    s.vaddr = eh_ ? vaddr_ : 0;
    s.is_eh = eh_;
    s.addr_size = uint8_t(addr_size_);
    return s;
  }
  const Bytes &bytes() const { return data_; }

private:
  void record(Bytes body) {
    while ((body.size() + 4) % addr_size_)
      body.push_back(0); // DW_CFA_nop padding
    put_le(data_, body.size(), 4);
    data_.insert(data_.end(), body.begin(), body.end());
  }
  bool eh_;
  unsigned addr_size_;
  uint32_t cie_off_ = 0;
  uint64_t vaddr_;
  bool has_lsda_ = false;
  Bytes data_;
};

// A sparse fake address space for the memory callback.
struct FakeMemory {
  std::map<uint64_t, uint8_t> bytes;
  unsigned reads = 0;
  void put(uint64_t addr, uint64_t v, int n) {
    for (int i = 0; i < n; ++i)
      bytes[addr + i] = uint8_t(v >> (8 * i));
  }
  void put_bytes(uint64_t addr, const Bytes &b) {
    for (size_t i = 0; i < b.size(); ++i)
      bytes[addr + i] = b[i];
  }
  static int read(void *ctx, uw_u64 addr, void *dst, uw_u32 len) {
    auto *m = static_cast<FakeMemory *>(ctx);
    ++m->reads;
    for (uw_u32 i = 0; i < len; ++i) {
      auto it = m->bytes.find(addr + i);
      if (it == m->bytes.end())
        return -1;
      static_cast<uint8_t *>(dst)[i] = it->second;
    }
    return 0;
  }
  uw_memory mem() { return uw_memory{&FakeMemory::read, this}; }
};

// A minimal table around one .eh_frame section (index by walking it).
inline Bytes make_table(const CfiBuilder &cfi, uint8_t arch, uint64_t eh_vaddr) {
  uw_cfi_section s = cfi.section();
  std::vector<std::pair<uint32_t, uint32_t>> index;
  uint32_t off = 0;
  while (off < s.len) {
    int kind;
    uint32_t next;
    if (uw_cfi_record(&s, off, &kind, &next))
      break;
    uw_fde f;
    if (kind == UW_REC_FDE && uw_cfi_parse_fde(&s, off, &f) == 0)
      index.push_back({uint32_t(f.pc_begin), off});
    off = next;
  }
  Bytes t(UW_TABLE_HEADER_SIZE, 0);
  auto set32 = [&](size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i)
      t[at + i] = uint8_t(v >> (8 * i));
  };
  uint32_t fde_off = uint32_t(t.size());
  for (auto [pc, o] : index) {
    put_le(t, pc, 4);
    put_le(t, o, 4);
  }
  uint32_t eh_off = uint32_t(t.size());
  t.insert(t.end(), cfi.bytes().begin(), cfi.bytes().end());
  set32(UW_HDR_MAGIC, UW_TABLE_MAGIC);
  t[UW_HDR_ARCH] = arch;
  t[UW_HDR_VERSION] = UW_TABLE_VERSION;
  t[UW_HDR_SIZE] = UW_TABLE_HEADER_SIZE;
  set32(UW_HDR_TOTAL_LEN, uint32_t(t.size()));
  set32(UW_HDR_FDE_COUNT, uint32_t(index.size()));
  set32(UW_HDR_FDE_INDEX, fde_off);
  set32(UW_HDR_EH_FRAME, eh_off);
  set32(UW_HDR_EH_FRAME_LEN, uint32_t(cfi.bytes().size()));
  set32(UW_HDR_SYMS, uint32_t(t.size()));
  set32(UW_HDR_STRINGS, uint32_t(t.size()));
  for (int i = 0; i < 8; ++i)
    t[UW_HDR_EH_FRAME_VADDR + i] = uint8_t(eh_vaddr >> (8 * i));
  return t;
}
