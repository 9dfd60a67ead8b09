// The table format: what translator/symtab writes for real objects, and
// that uw_table_open refuses anything inconsistent.
#include "cfi_builder.h"
#include "symtab/fde_index.h"
#include "symtab/symbol_index.h"
#include "symtab/unwind_table.h"

extern "C" {
#include "uw_eh_hdr.h"
}

#include <elf.h>
#include <gtest/gtest.h>

namespace {

const char *kLibc = "/usr/lib/x86_64-linux-gnu/libc.so.6";

Bytes libc_table(stap::symtab::TableStats *stats = nullptr) {
  std::string err;
  Bytes t = stap::symtab::build_unwind_table(kLibc, err, stats);
  EXPECT_FALSE(t.empty()) << err;
  return t;
}

TEST(Table, LibcTableOpensAndCountsItsFdesAndSymbols) {
  stap::symtab::TableStats stats;
  Bytes t = libc_table(&stats);
  uw_table tab;
  ASSERT_EQ(uw_table_open(&tab, t.data(), uint32_t(t.size())), 0);
  EXPECT_EQ(tab.arch, UW_ARCH_X86_64);
  EXPECT_EQ(tab.fde_count, stats.fdes);
  EXPECT_GT(stats.fdes, 1000u);
  EXPECT_GT(stats.symbols, 1000u);
  EXPECT_TRUE(stats.used_eh_frame_hdr);
  EXPECT_EQ(tab.eh_frame_len, stats.eh_frame_bytes);
}

TEST(Table, EveryTruncationIsRejected) {
  Bytes t = libc_table();
  for (uint32_t len : {0u, 4u, uint32_t(UW_TABLE_HEADER_SIZE), uint32_t(t.size() - 1)}) {
    uw_table tab;
    EXPECT_EQ(uw_table_open(&tab, t.data(), len), UW_EBADTABLE) << len;
  }
}

TEST(Table, CountsThatOverrunTheBlobAreRejected) {
  Bytes t = libc_table();
  for (int field : {UW_HDR_FDE_COUNT, UW_HDR_SYM_COUNT, UW_HDR_EH_FRAME_LEN,
                    UW_HDR_STRINGS_LEN}) {
    Bytes bad = t;
    bad[field + 3] = 0x40; // a count in the hundreds of millions
    uw_table tab;
    EXPECT_EQ(uw_table_open(&tab, bad.data(), uint32_t(bad.size())), UW_EBADTABLE)
        << "field at " << field;
  }
}

TEST(Table, UnsortedIndexIsRejected) {
  Bytes t = libc_table();
  uw_table tab;
  ASSERT_EQ(uw_table_open(&tab, t.data(), uint32_t(t.size())), 0);
  size_t first = tab.fde_index - t.data();
  std::swap_ranges(t.begin() + first, t.begin() + first + 8, t.begin() + first + 8);
  EXPECT_EQ(uw_table_open(&tab, t.data(), uint32_t(t.size())), UW_EBADTABLE);
}

TEST(Table, SymbolLookupFindsTheElfSymbolContainingAnAddress) {
  std::string err;
  auto elf = stap::symtab::ElfImage::open_file(kLibc, err);
  ASSERT_TRUE(elf) << err;
  Bytes t = libc_table();
  uw_table tab;
  ASSERT_EQ(uw_table_open(&tab, t.data(), uint32_t(t.size())), 0);
  for (const auto &sym : elf->function_symbols()) {
    if (sym.name != "getdents64")
      continue;
    const char *name;
    uw_u64 start, size;
    ASSERT_EQ(uw_table_symbol(&tab, sym.value + sym.size / 2, &name, &start, &size), 0);
    EXPECT_EQ(start, sym.value);
    EXPECT_EQ(size, sym.size);
    EXPECT_EQ(uw_table_symbol(&tab, sym.value + sym.size, &name, &start, &size) == 0 &&
                  start == sym.value,
              false)
        << "one past the end is not inside";
    return;
  }
  FAIL() << "getdents64 not found in libc";
}

TEST(Table, EhFrameHdrIndexEqualsAWalkOfEhFrame) {
  std::string err;
  auto elf = stap::symtab::ElfImage::open_file(kLibc, err);
  auto eh = elf->section(".eh_frame");
  auto hdr = elf->section(".eh_frame_hdr");
  ASSERT_TRUE(eh && hdr);
  stap::symtab::CfiInput in;
  in.eh_frame = &eh->bytes;
  in.eh_frame_vaddr = eh->vaddr;
  std::vector<stap::symtab::FdeEntry> walked, from_hdr;
  bool used;
  ASSERT_TRUE(stap::symtab::index_fdes(in, walked, used, err));
  EXPECT_FALSE(used);
  in.eh_frame_hdr = &hdr->bytes;
  in.eh_frame_hdr_vaddr = hdr->vaddr;
  ASSERT_TRUE(stap::symtab::index_fdes(in, from_hdr, used, err));
  EXPECT_TRUE(used);
  ASSERT_EQ(walked.size(), from_hdr.size());
  for (size_t i = 0; i < walked.size(); ++i) {
    EXPECT_EQ(walked[i].pc, from_hdr[i].pc);
    EXPECT_EQ(walked[i].ref, from_hdr[i].ref);
  }
  // and the raw header's binary search finds the same FDEs
  uw_eh_hdr h;
  ASSERT_EQ(uw_eh_hdr_open(&h, hdr->bytes.data(), uint32_t(hdr->bytes.size()),
                           hdr->vaddr, 8), 0);
  for (size_t i = 0; i < walked.size(); i += 97) {
    uw_u64 fde;
    ASSERT_EQ(uw_eh_hdr_find(&h, walked[i].pc + 1, &fde), 0);
    EXPECT_EQ(fde - eh->vaddr, walked[i].ref);
  }
}

TEST(Table, DebugFrameOnlyObjectIsIndexedFromDebugFrame) {
  std::string err;
  stap::symtab::TableStats stats;
  Bytes t = stap::symtab::build_unwind_table(
      std::string(UW_PROGRAM_DIR) + "/debug_frame_only_64", err, &stats);
  ASSERT_FALSE(t.empty()) << err;
  EXPECT_GT(stats.debug_frame_bytes, 0u);
  uw_table tab;
  ASSERT_EQ(uw_table_open(&tab, t.data(), uint32_t(t.size())), 0);
  unsigned from_debug_frame = 0;
  for (uint32_t i = 0; i < tab.fde_count; ++i)
    from_debug_frame += (uw_le32(tab.fde_index + 8 * i + 4) & UW_FDE_REF_DEBUG_FRAME) != 0;
  EXPECT_GE(from_debug_frame, 3u) << "main, list_dir, count_entries";
}

} // namespace

// One name per address: a symbol-version alias that .symver wrote into
// .symtab ("__libc_start_main@@GLIBC_2.34", global) loses to the
// unversioned local name gdb shows for the same code; otherwise .symtab
// beats .dynsym and global beats local.
TEST(Table, SymbolChoicePrefersUnversionedNames) {
  using stap::symtab::ElfSymbol;
  std::vector<ElfSymbol> syms = {
      {"__libc_start_main@@GLIBC_2.34", 0x100, 0x40, STB_GLOBAL, true},
      {"__libc_start_main@GLIBC_2.2.5", 0x100, 0x40, STB_GLOBAL, true},
      {"__libc_start_main_impl", 0x100, 0x40, STB_LOCAL, true},
      {"__libc_start_main", 0x100, 0x40, STB_GLOBAL, false},
      {"local_name", 0x200, 0x10, STB_LOCAL, true},
      {"global_name", 0x200, 0x10, STB_GLOBAL, true},
  };
  auto index = stap::symtab::index_symbols(syms);
  ASSERT_EQ(index.size(), 2u);
  EXPECT_EQ(index[0].name, "__libc_start_main_impl");
  EXPECT_EQ(index[1].name, "global_name");
}
