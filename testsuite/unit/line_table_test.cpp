// Line tables (symtab/line_table.h, read by runtime/task/line_table.c as
// the kernel reads them): for programs built here with -g, 64- and 32-bit,
// -O0 and -O2 (inlined code from a header), DWARF 4 and 5, the file and
// line of every byte address of every function equal addr2line's; tables stay small;
// objects without DWARF get none; and blobs damaged in any byte or cut
// anywhere are refused or, when still valid, answer within themselves.
#include "driver/user_lines.h"
#include "symtab/elf_image.h"
#include "symtab/line_table.h"

extern "C" {
#include "../../runtime/task/line_table.h"
}

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <random>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace stap;
namespace fs = std::filesystem;

namespace {

class LineTable : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = (fs::temp_directory_path() / ("stap-line-table-test." + std::to_string(::getpid())))
               .string();
    fs::remove_all(dir_);
    fs::create_directories(dir_ + "/src");
    std::ofstream(dir_ + "/src/helper.h") << "static inline int helper(int x)\n"
                                              "{\n"
                                              "\tif (x > 3)\n"
                                              "\t\treturn x * 7;\n"
                                              "\treturn x - 1;\n"
                                              "}\n";
    std::ofstream(dir_ + "/src/prog.c") << "#include \"helper.h\"\n"
                                            "#include <stdio.h>\n"
                                            "__attribute__((noinline)) int twice(int x)\n"
                                            "{\n"
                                            "\treturn 2 * helper(x);\n"
                                            "}\n"
                                            "int main(int argc, char **argv)\n"
                                            "{\n"
                                            "\tint s = 0;\n"
                                            "\tfor (int i = 0; i < argc; i++)\n"
                                            "\t\ts += twice(i) + helper(argc);\n"
                                            "\tprintf(\"%d\\n\", s);\n"
                                            "\treturn s & 1;\n"
                                            "}\n";
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string build(const std::string &flags) {
    std::string out = dir_ + "/prog";
    std::string cmd = "cd '" + dir_ + "/src' && cc " + flags + " -o '" + out + "' prog.c";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    return out;
  }

  // addr2line's "FILE:LINE" for each address ("??:0" where it knows none).
  std::vector<std::string> addr2line(const std::string &prog, const std::vector<uint64_t> &addrs) {
    std::string in = dir_ + "/addrs", out = dir_ + "/lines";
    {
      std::ofstream f(in);
      for (uint64_t a : addrs)
        f << std::hex << "0x" << a << "\n";
    }
    std::string cmd = "addr2line -e '" + prog + "' < '" + in + "' > '" + out + "'";
    EXPECT_EQ(std::system(cmd.c_str()), 0);
    std::vector<std::string> r;
    std::ifstream f(out);
    for (std::string line; std::getline(f, line);) {
      auto d = line.find(" (discriminator");
      line = d == std::string::npos ? line : line.substr(0, d);
      r.push_back(line == "??:?" ? "??:0" : line); // no line: both spellings
    }
    return r;
  }

  // Every byte address of every sized function of the program.
  std::vector<uint64_t> code_addresses(const std::string &prog) {
    std::string err;
    auto elf = symtab::ElfImage::open_file(prog, err);
    EXPECT_TRUE(elf) << err;
    std::vector<uint64_t> addrs;
    for (const auto &s : elf->function_symbols())
      for (uint64_t a = s.value; a < s.value + s.size; ++a)
        addrs.push_back(a);
    return addrs;
  }

  void expect_same_as_addr2line(const std::string &flags) {
    std::string prog = build(flags);
    std::string err;
    auto elf = symtab::ElfImage::open_file(prog, err);
    ASSERT_TRUE(elf) << err;
    symtab::LineTableStats st;
    std::vector<uint8_t> blob = symtab::build_line_table(prog, elf->load_base(), err, &st);
    ASSERT_TRUE(err.empty()) << err;
    ASSERT_FALSE(blob.empty());
    stp_lines t;
    ASSERT_EQ(stp_lines_open(&t, blob.data(), static_cast<uint32_t>(blob.size())), 0);
    std::vector<uint64_t> addrs = code_addresses(prog);
    std::vector<std::string> want = addr2line(prog, addrs);
    ASSERT_EQ(want.size(), addrs.size());
    size_t known = 0;
    for (size_t i = 0; i < addrs.size(); ++i) {
      const char *file;
      uint32_t line;
      std::string got = stp_lines_find(&t, addrs[i], &file, &line)
                            ? std::string(file) + ":" + std::to_string(line)
                            : "??:0";
      known += got != "??:0";
      EXPECT_EQ(got, want[i]) << flags << " at 0x" << std::hex << addrs[i];
    }
    EXPECT_GT(known, addrs.size() / 2) << "most of the code has lines";
    EXPECT_EQ(st.files, 2u) << "prog.c and helper.h, each once";
    EXPECT_LE(blob.size(), 48 + 8 * st.rows + 8 * st.rows + 200) << "8-byte rows, few spans";
  }

  std::string dir_;
};

TEST_F(LineTable, EveryAddressAsAddr2line64) { expect_same_as_addr2line("-m64 -O2 -g"); }
TEST_F(LineTable, EveryAddressAsAddr2line32) { expect_same_as_addr2line("-m32 -O2 -g"); }
// DWARF 4: with DWARF 5 at -O0, binutils 2.40's addr2line names prog.c for
// the lines of helper(), out of line in helper.h (gdb and libdw say
// helper.h, as the next test does).
TEST_F(LineTable, EveryAddressAsAddr2lineUnoptimized) { expect_same_as_addr2line("-m64 -O0 -gdwarf-4"); }

TEST_F(LineTable, OutOfLineHeaderFunctionIsInTheHeader) {
  std::string prog = build("-O0 -g");
  std::string err;
  auto elf = symtab::ElfImage::open_file(prog, err);
  std::vector<uint8_t> blob = symtab::build_line_table(prog, elf->load_base(), err);
  stp_lines t;
  ASSERT_EQ(stp_lines_open(&t, blob.data(), static_cast<uint32_t>(blob.size())), 0);
  uint64_t helper = 0;
  for (const auto &s : elf->function_symbols())
    if (s.name == "helper")
      helper = s.value;
  ASSERT_NE(helper, 0u);
  const char *file;
  uint32_t line;
  ASSERT_TRUE(stp_lines_find(&t, helper, &file, &line));
  EXPECT_EQ(std::string(file) + ":" + std::to_string(line), dir_ + "/src/helper.h:2")
      << "gdb: Line 2 of helper.h starts at address <helper>";
}
TEST_F(LineTable, EveryAddressAsAddr2lineDwarf4) { expect_same_as_addr2line("-m64 -O2 -gdwarf-4"); }

TEST_F(LineTable, FileNamesAreWhereTheSourceIs) {
  std::string prog = build("-O2 -g");
  std::string err;
  auto elf = symtab::ElfImage::open_file(prog, err);
  std::vector<uint8_t> blob = symtab::build_line_table(prog, elf->load_base(), err);
  stp_lines t;
  ASSERT_EQ(stp_lines_open(&t, blob.data(), static_cast<uint32_t>(blob.size())), 0);
  std::set<std::string> names;
  for (uint32_t i = 0; i < t.nfiles; ++i)
    names.insert(t.strings + (uint32_t(t.files[4 * i]) | uint32_t(t.files[4 * i + 1]) << 8 |
                              uint32_t(t.files[4 * i + 2]) << 16 | uint32_t(t.files[4 * i + 3]) << 24));
  EXPECT_EQ(names, (std::set<std::string>{dir_ + "/src/prog.c", dir_ + "/src/helper.h"}));
}

TEST_F(LineTable, NoDwarfNoTable) {
  std::string prog = build("-O2");
  std::string err;
  auto elf = symtab::ElfImage::open_file(prog, err);
  symtab::LineTableStats st;
  EXPECT_TRUE(symtab::build_line_table(prog, elf->load_base(), err, &st).empty());
  EXPECT_TRUE(err.empty()) << err;
  EXPECT_FALSE(st.too_big);
}

TEST_F(LineTable, TooManyRowsNoTable) {
  std::string prog = build("-O2 -g");
  std::string err;
  auto elf = symtab::ElfImage::open_file(prog, err);
  symtab::LineTableStats st;
  EXPECT_TRUE(symtab::build_line_table(prog, elf->load_base(), err, &st, 3).empty());
  EXPECT_TRUE(st.too_big);
  EXPECT_GT(st.rows, 3u);
}

// build_user_lines() keeps tables by the content of the object (and its
// debuginfo file): the second build of one is read back whole, a changed
// object misses, an object without lines is kept as such, and a damaged
// entry is built again.
TEST_F(LineTable, CachedByContent) {
  std::string prog = build("-O2 -g"), cache = dir_ + "/cache", err;
  UserObject obj{prog, prog, "-d", true};
  Sysroot host;
  UserLines first = build_user_lines(obj, "", host, err, cache);
  ASSERT_TRUE(err.empty()) << err;
  ASSERT_FALSE(first.packed.empty());
  EXPECT_FALSE(first.from_cache);
  UserLines again = build_user_lines(obj, "", host, err, cache);
  EXPECT_TRUE(again.from_cache);
  EXPECT_EQ(again.packed, first.packed);
  EXPECT_EQ(again.hash, first.hash);
  EXPECT_EQ(again.table_bytes, first.table_bytes);
  EXPECT_EQ(again.source, first.source);
  EXPECT_EQ(again.stats.rows, first.stats.rows);
  EXPECT_EQ(again.stats.files, first.stats.files);

  build("-O0 -g"); // the same path, other code
  UserLines changed = build_user_lines(obj, "", host, err, cache);
  EXPECT_FALSE(changed.from_cache);
  EXPECT_NE(changed.hash, first.hash);

  for (const auto &e : fs::recursive_directory_iterator(cache)) // damage every entry
    if (e.is_regular_file())
      fs::resize_file(e.path(), 10);
  UserLines rebuilt = build_user_lines(obj, "", host, err, cache);
  EXPECT_FALSE(rebuilt.from_cache);
  EXPECT_EQ(rebuilt.hash, changed.hash);

  build("-O2"); // no DWARF: no table, kept as none
  UserLines none = build_user_lines(obj, "", host, err, cache);
  UserLines none_again = build_user_lines(obj, "", host, err, cache);
  EXPECT_TRUE(err.empty()) << err;
  EXPECT_TRUE(none.packed.empty());
  EXPECT_FALSE(none.from_cache);
  EXPECT_TRUE(none_again.from_cache);
  EXPECT_TRUE(none_again.packed.empty());
  EXPECT_TRUE(none_again.hash.empty());
}

TEST_F(LineTable, MissingFileIsAnError) {
  std::string err;
  EXPECT_TRUE(symtab::build_line_table(dir_ + "/nothing", 0, err).empty());
  EXPECT_NE(err.find("cannot open"), std::string::npos);
}

TEST_F(LineTable, DamagedBlobsAreRefusedOrStayInBounds) {
  std::string prog = build("-O2 -g");
  std::string err;
  auto elf = symtab::ElfImage::open_file(prog, err);
  std::vector<uint8_t> good = symtab::build_line_table(prog, elf->load_base(), err);
  ASSERT_FALSE(good.empty());
  std::vector<uint64_t> addrs = code_addresses(prog);
  std::mt19937 rng(7);
  for (int round = 0; round < 20000; ++round) {
    std::vector<uint8_t> b = good;
    if (round % 4 == 0)
      b.resize(rng() % b.size()); // cut
    for (int n = 1 + rng() % 3; n > 0 && !b.empty(); --n)
      b[rng() % b.size()] = static_cast<uint8_t>(rng());
    stp_lines t;
    if (stp_lines_open(&t, b.data(), static_cast<uint32_t>(b.size())) != 0)
      continue;
    for (int k = 0; k < 8; ++k) {
      const char *file;
      uint32_t line;
      uint64_t a = k < 4 ? addrs[rng() % addrs.size()] : (uint64_t(rng()) << 32 | rng());
      if (stp_lines_find(&t, a, &file, &line)) {
        const char *lo = reinterpret_cast<const char *>(b.data());
        ASSERT_TRUE(file >= lo && file < lo + b.size());
        ASSERT_LT(file + std::strlen(file), lo + b.size()); // NUL inside the blob
      }
    }
  }
}

} // namespace
