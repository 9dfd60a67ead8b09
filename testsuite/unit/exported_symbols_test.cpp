// Module.symvers, as `.exported` reads it without DWARF.
#include "symtab/exported_symbols.h"
#include "util/module_name.h"

#include <gtest/gtest.h>

namespace stap::symtab {
namespace {

TEST(ExportedSymbols, ModuleSymversLinesGroupByModuleAsTheKernelNamesThem) {
  ExportedSymbols e = parse_module_symvers(
      "0x4c9d28b0\tphys_base\tvmlinux\tEXPORT_SYMBOL\t\n"
      "0xb4080944\tjbd2_journal_start\tfs/jbd2/jbd2\tEXPORT_SYMBOL\t\n"
      "0x12345678\tnft_chain_validate\tnet/netfilter/nf_tables\tEXPORT_SYMBOL_GPL\t\n"
      "0x9abcdef0\tdm_bufio_read\tdrivers/md/dm-bufio\tEXPORT_SYMBOL_GPL\tDM\n"
      "not a symvers line\n");
  EXPECT_EQ(e["vmlinux"], std::set<std::string>{"phys_base"});
  EXPECT_EQ(e["jbd2"], std::set<std::string>{"jbd2_journal_start"});
  EXPECT_EQ(e["nf_tables"], std::set<std::string>{"nft_chain_validate"});
  EXPECT_EQ(e["dm_bufio"], std::set<std::string>{"dm_bufio_read"}); // '-' -> '_'
  EXPECT_EQ(e.size(), 4u);
}

TEST(ExportedSymbols, KernelModuleNames) {
  EXPECT_EQ(kernel_module_name("/lib/modules/r/kernel/drivers/md/dm-bufio.ko"), "dm_bufio");
  EXPECT_EQ(kernel_module_name("jbd2"), "jbd2");
  EXPECT_EQ(kernel_module_name("t_x.ko"), "t_x");
}

} // namespace
} // namespace stap::symtab
