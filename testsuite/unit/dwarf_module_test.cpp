// translator/dwarf/ on a real module: testsuite/kmod/stp_testmod built
// -g -O2 with each installed target kernel's Kbuild (x86_64 and i686),
// then read back as `module("stp_testmod")` probes and -L see it.
#include "dwarf/functions.h"
#include "dwarf/globals.h"
#include "dwarf/scope.h"
#include "dwarf/type_reader.h"
#include "remote/vm.h"

#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <map>

using namespace stap;
namespace fs = std::filesystem;

namespace {

// stp_testmod.ko built for `t`, or "" (the test then fails with the log).
std::string build_testmod(const remote::VmTarget &t) {
  std::string dir = (fs::temp_directory_path() / ("stap-dwarf-unit-" + t.release)).string();
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const auto &e : fs::directory_iterator(STAP_TESTSUITE_DIR "/kmod/stp_testmod"))
    fs::copy_file(e.path(), dir + "/" + e.path().filename().string());
  std::string cmd = "make -s -C '" + t.build_dir + "' M='" + dir + "' modules >'" + dir +
                    "/build.log' 2>&1";
  if (std::system(cmd.c_str()) != 0)
    return "";
  return dir + "/stp_testmod.ko";
}

class DwarfModule : public ::testing::TestWithParam<std::string> {};

TEST_P(DwarfModule, FunctionsScopesTypesLabelsAndGlobals) {
  auto target = remote::default_vm_target(GetParam());
  if (!target)
    GTEST_SKIP() << "no " << GetParam() << " kernel installed";
  std::string ko = build_testmod(*target);
  ASSERT_FALSE(ko.empty()) << "building stp_testmod for " << target->release << " failed";
  std::string err;
  auto file = dwarf::DebugFile::open(ko, err);
  ASSERT_TRUE(file) << err;
  ASSERT_TRUE(file->has_dwarf());
  ASSERT_TRUE(file->relocatable());
  const arch::Arch &arch = *arch::find_arch(GetParam());

  // Functions by pattern, each probed after its prologue, named by symbol+offset.
  auto pat = dwarf::parse_function_pattern("stp_s*@stp_testmod.c", err);
  ASSERT_TRUE(pat);
  auto fns = dwarf::find_functions(*file, *pat, true, false);
  std::vector<std::string> names;
  for (const auto &f : fns)
    names.push_back(f.name);
  EXPECT_EQ(names, (std::vector<std::string>{"stp_scalar", "stp_static", "stp_struct"}));
  const dwarf::FunctionInfo &scalar = fns[0];
  EXPECT_GT(scalar.probe, scalar.entry);
  auto sym = file->symbol_at(scalar.probe);
  ASSERT_TRUE(sym);
  EXPECT_EQ(sym->name, "stp_scalar");
  EXPECT_EQ(sym->offset, scalar.probe - scalar.entry);

  // Parameters in the arch's argument registers, with their C types.
  dwarf::ScopeOptions opts(arch);
  auto scope = dwarf::scope_at(*file, scalar, scalar.probe, opts);
  ASSERT_GE(scope->vars.size(), 3u);
  const auto &tt = *scope->types;
  EXPECT_EQ(scope->vars[0].name, "a");
  EXPECT_EQ(tt.c_name(scope->vars[0].type), "int");
  EXPECT_EQ(tt.c_name(scope->vars[1].type), "long int");
  EXPECT_EQ(tt.c_name(scope->vars[2].type), "unsigned char");
  const arch::Register *first = arch::find_register(arch, arch.kernel_arg_regs[0]);
  EXPECT_EQ(scope->vars[0].loc.kind, debuginfo::VarLocation::Value);
  EXPECT_EQ(scope->vars[0].loc.c_expr, arch::register_c(arch, *first, "c->regs"));

  // Every type and prototype of the file (what the tracepoint query module
  // reader wants): the struct behind stp_struct's pointer parameter, with
  // members, an array, bitfields, a union.
  std::map<std::string, debuginfo::TypeId> protos;
  dwarf::read_all_types(*file, &protos);
  ASSERT_TRUE(protos.count("stp_struct"));
  EXPECT_EQ(tt[protos["stp_struct"]].members.size(), 2u);
  auto shape = tt.find("struct stp_shape");
  ASSERT_TRUE(shape);
  auto color = tt.member(*shape, "color");
  ASSERT_TRUE(color);
  EXPECT_EQ(color->bit_size, 5u);
  auto sides = tt.member(*shape, "sides");
  ASSERT_TRUE(sides);
  EXPECT_EQ(tt.c_name(sides->type), "int [4]");
  auto tag = tt.member(*shape, "tag");
  ASSERT_TRUE(tag);
  EXPECT_EQ(tt[tt.strip(tag->type)].kind, debuginfo::Kind::Union);

  // The inline instance, with its parameters where the instance begins.
  auto inl = dwarf::parse_function_pattern("stp_inline", err);
  auto inlines = dwarf::find_functions(*file, *inl, false, true);
  ASSERT_EQ(inlines.size(), 1u);
  EXPECT_TRUE(inlines[0].inlined);
  auto iscope = dwarf::scope_at(*file, inlines[0], inlines[0].entry, opts);
  ASSERT_TRUE(iscope->find("factor"));
  EXPECT_EQ(iscope->find("factor")->loc.kind, debuginfo::VarLocation::Value);

  // Labels, and a global at its section's load address.
  auto lines = dwarf::parse_function_pattern("stp_lines", err);
  auto lf = dwarf::find_functions(*file, *lines, true, false);
  ASSERT_EQ(lf.size(), 1u);
  auto labels = dwarf::find_labels(*file, lf[0], "stp_label_*");
  ASSERT_EQ(labels.size(), 1u);
  EXPECT_EQ(labels[0].name, "stp_label_done");
  std::string why;
  auto counter = dwarf::find_global(*file, "stp_testmod", "stp_testmod_counter@stp_testmod.c", arch, why);
  ASSERT_TRUE(counter) << why;
  EXPECT_EQ(counter->loc.kind, debuginfo::VarLocation::Address);
  EXPECT_EQ(counter->loc.c_expr.rfind("(stp_module_section(\"stp_testmod\", \".bss\") + ", 0), 0u)
      << counter->loc.c_expr;
}

INSTANTIATE_TEST_SUITE_P(Arch, DwarfModule, ::testing::Values("x86_64", "i386"));

} // namespace
