// The target kernel's symbols from /proc/kallsyms text, and their cache
// file: names for wildcards, and the copies of names several functions
// share (probed one by one, by their offset from _printk).
#include "symtab/kernel_symbols.h"

#include <gtest/gtest.h>

namespace stap::symtab {
namespace {

// _printk at ...2000: offsets below it are negative.
const char kKallsyms[] =
    "ffffffff81000000 T _stext\n"
    "ffffffff81001000 t do_fault\n"
    "ffffffff81002000 T _printk\n"
    "ffffffff81003000 t do_fault\n"
    "ffffffff81004000 t type_show\n"
    "ffffffff81005000 t type_show\n"
    "ffffffff81006000 t type_show\n"
    "ffffffff81007000 T listed_twice\n"
    "ffffffff81007000 T listed_twice\n"
    "ffffffff81008000 t helper.isra.0\n"
    "ffffffff81008100 t helper.isra.0\n"
    "ffffffff81009000 t setup_thing\n"
    "ffffffff81009100 W weak_one\n"
    "ffffffff82000000 T _sinittext\n"
    "ffffffff82000100 t setup_thing\n" // an __init copy: freed after boot
    "ffffffff82000200 t init_only\n"
    "ffffffff82000300 t init_only\n"
    "ffffffff82001000 T _einittext\n"
    "ffffffff83000000 d some_data\n"
    "ffffffffc0001000 t type_show\t[nfsd]\n" // a module's: not the kernel's
    "ffffffffc0002000 t nfsd_open\t[nfsd]\n"
    "ffffffffc0003000 t nfsd_open\t[nfsd]\n";

TEST(KernelSymbols, FunctionNamesAreTheLiveTextSymbolsOnce) {
  std::vector<std::string> names = parse_kallsyms(kKallsyms);
  // (_sinittext starts the __init range, _einittext is past it)
  EXPECT_EQ(names, (std::vector<std::string>{"_einittext", "_printk", "_stext", "do_fault",
                                             "listed_twice", "setup_thing", "type_show",
                                             "weak_one"}));
}

TEST(KernelSymbols, CopiesAreTheNamesSeveralLiveFunctionsShare) {
  auto copies = parse_kallsyms_copies(kKallsyms);
  // Not listed_twice (one address), setup_thing (its other copy is
  // __init), init_only (only __init copies), helper.isra.0 (a clone) nor
  // the module's type_show and nfsd_open.
  ASSERT_EQ(copies.size(), 2u);
  EXPECT_EQ(copies["do_fault"], (std::vector<int64_t>{-0x1000, 0x1000}));
  EXPECT_EQ(copies["type_show"], (std::vector<int64_t>{0x2000, 0x3000, 0x4000}));
}

TEST(KernelSymbols, NoCopiesWithoutPrintk) {
  EXPECT_TRUE(parse_kallsyms_copies("ffffffff81001000 t f\nffffffff81003000 t f\n").empty());
}

KernelSymbols sample() {
  KernelSymbols k;
  k.functions = parse_kallsyms(kKallsyms);
  k.copies = parse_kallsyms_copies(kKallsyms);
  k.blacklisted = {"do_int3"};
  k.data_lines = parse_kallsyms_data(kKallsyms);
  return k;
}

TEST(KernelSymbols, FunctionCopiesOnlyForSharedNames) {
  KernelSymbols k = sample();
  EXPECT_EQ(k.function_copies("do_fault"), (std::vector<int64_t>{-0x1000, 0x1000}));
  EXPECT_TRUE(k.function_copies("setup_thing").empty());
  EXPECT_TRUE(k.function_copies("no_such_function").empty());
}

TEST(KernelSymbols, CacheTextRoundTrips) {
  KernelSymbols k = sample();
  std::string text = kernel_symbols_cache_text(k);
  EXPECT_EQ(text.rfind("V 3\n", 0), 0u);
  EXPECT_NE(text.find("\nC do_fault fffffffffffff000 1000\n"), std::string::npos);
  KernelSymbols back;
  ASSERT_TRUE(parse_kernel_symbols_cache(text, back));
  EXPECT_EQ(back.functions, k.functions);
  EXPECT_EQ(back.blacklisted, k.blacklisted);
  EXPECT_EQ(back.copies, k.copies);
  EXPECT_EQ(back.data_lines, k.data_lines);
  EXPECT_EQ(back.data_offsets("some_data"), (std::vector<int64_t>{0x1ffe000}));
}

TEST(KernelSymbols, CachesOfAnotherVersionOrMalformedAreReadAgain) {
  KernelSymbols k;
  // Version 2 had no copies: its duplicated names would be probed once.
  EXPECT_FALSE(parse_kernel_symbols_cache("V 2\nF do_fault\n", k));
  KernelSymbols one_copy, bad_offset;
  EXPECT_FALSE(parse_kernel_symbols_cache("V 3\nF f\nC f 1000\n", one_copy));
  EXPECT_FALSE(parse_kernel_symbols_cache("V 3\nF f\nC f 1000 zz\n", bad_offset));
}

} // namespace
} // namespace stap::symtab
