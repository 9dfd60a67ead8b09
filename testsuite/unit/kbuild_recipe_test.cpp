// The recorded Kbuild commands of direct builds (translator/build/
// kbuild_recipe.h): what a recipe keeps of Kbuild's .cmd files, and how a
// compile is made to start from the kernel's precompiled header.
#include "build/kbuild_recipe.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace stap::build;

namespace {

const char kCompile[] =
    "gcc-12 -Wp,-MMD,@DIR@/.@NAME@_src.o.d -nostdinc -I./include -include /k/compiler-version.h "
    "-include /k/kconfig.h -D__KERNEL__ -O2 @CCFLAGS@  -DMODULE  "
    "-DKBUILD_BASENAME='\"@NAME@_src\"' -DKBUILD_MODNAME='\"@NAME@\"' "
    "-D__KBUILD_MODNAME=kmod_@NAME@ -c -o @DIR@/@NAME@_src.o @DIR@/@NAME@_src.c   ; "
    "./tools/objtool/objtool --orc --module @DIR@/@NAME@_src.o";

TEST(KbuildRecipe, APrecompiledHeaderCompileDefinesTheModulesNamesAfterIt) {
  std::string defs;
  std::string cmd = with_pch(kCompile, defs);
  EXPECT_EQ(cmd, "gcc-12 -nostdinc -I./include -D__KERNEL__ -O2 @CCFLAGS@ -DMODULE -c -o "
                 "@DIR@/@NAME@_src.o @DIR@/@NAME@_src.c -g0 -include @PCH@ -include @DEFS@ ; "
                 "./tools/objtool/objtool --orc --module @DIR@/@NAME@_src.o");
  EXPECT_EQ(defs, "#define KBUILD_BASENAME \"@NAME@_src\"\n"
                  "#define KBUILD_MODNAME \"@NAME@\"\n"
                  "#define __KBUILD_MODNAME kmod_@NAME@\n");
}

TEST(KbuildRecipe, ThePrecompileTakesTheModCompilesFlagsWithoutItsFiles) {
  KbuildRecipe r;
  r.cc_mod = "gcc-12 -Wp,-MMD,@DIR@/.@NAME@.mod.o.d -nostdinc -include /k/kconfig.h -O2 -g "
             "-DMODULE -DKBUILD_MODNAME='\"@NAME@\"' -c -o @DIR@/@NAME@.mod.o @DIR@/@NAME@.mod.c";
  EXPECT_EQ(pch_command(r),
            "gcc-12 -nostdinc -O2 -g -DMODULE -g0 -x c-header -o @PCH@.gch @PCH@");
}

TEST(KbuildRecipe, InstantiatePutsInEveryValue) {
  RecipeValues v{"/tmp/d", "stap_ab", "-I/rt '-DX=1'", "/c/pch.h", "/tmp/d/x.defs.h"};
  EXPECT_EQ(instantiate("cc @CCFLAGS@ -include @PCH@ -include @DEFS@ @DIR@/@NAME@_src.c", v),
            "cc -I/rt '-DX=1' -include /c/pch.h -include /tmp/d/x.defs.h /tmp/d/stap_ab_src.c");
}

// A module directory as Kbuild leaves it: its .cmd files and NAME.mod.c.
class RecordedBuild : public ::testing::Test {
protected:
  void SetUp() override {
    char tmp[] = "/tmp/stap-recipe-test-XXXXXX";
    dir_ = mkdtemp(tmp);
    const std::string n = "stap_0123456789abcdef";
    write("." + n + "_src.o.cmd", "cmd_" + dir_ + "/" + n + "_src.o := gcc -I/rt -g0 '-DA' -c -o " +
                                      dir_ + "/" + n + "_src.o " + dir_ + "/" + n + "_src.c\n"
                                      "source_x := y\n");
    write("." + n + ".o.cmd", "cmd_x := ld -r -o " + dir_ + "/" + n + ".o @" + dir_ + "/" + n + ".mod\n");
    write(".Module.symvers.cmd", "cmd_x := sed 's/ko$$/o/' " + dir_ + "/modules.order | modpost\n");
    write("." + n + ".mod.o.cmd", "cmd_x := gcc -include /k/kconfig.h -c -o " + dir_ + "/" + n +
                                      ".mod.o " + dir_ + "/" + n + ".mod.c\n");
    write("." + n + ".ko.cmd", "cmd_x := ld -r -o " + dir_ + "/" + n + ".ko\n");
    write(n + ".mod.c", "#include <linux/module.h>\n#define INCLUDE_VERMAGIC\n"
                        "#include <linux/vermagic.h>\n\nBUILD_SALT;\n");
    name_ = n;
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string &file, const std::string &text) {
    std::ofstream(dir_ + "/" + file) << text;
  }
  std::string dir_, name_;
};

TEST_F(RecordedBuild, TheCommandsBecomeTemplates) {
  KbuildRecipe r;
  std::string why;
  ASSERT_TRUE(record_recipe(dir_, name_, "-I/rt -g0 '-DA'", r, why)) << why;
  EXPECT_EQ(r.cc_src, "gcc @CCFLAGS@ -c -o @DIR@/@NAME@_src.o @DIR@/@NAME@_src.c");
  EXPECT_EQ(r.as_blobs, ""); // this module had no blobs
  EXPECT_EQ(r.ld_o, "ld -r -o @DIR@/@NAME@.o @@DIR@/@NAME@.mod");
  EXPECT_EQ(r.modpost, "sed 's/ko$/o/' @DIR@/modules.order | modpost"); // make's $$ is $
  EXPECT_EQ(r.forced_includes, std::vector<std::string>{"/k/kconfig.h"});
  EXPECT_EQ(r.mod_c_prelude, (std::vector<std::string>{"#include <linux/module.h>",
                                                       "#define INCLUDE_VERMAGIC",
                                                       "#include <linux/vermagic.h>"}));
  KbuildRecipe back;
  ASSERT_TRUE(recipe_from_text(recipe_to_text(r), back));
  EXPECT_EQ(recipe_to_text(back), recipe_to_text(r));
}

TEST_F(RecordedBuild, OtherCcflagsOrAMissingStepRecordNothing) {
  KbuildRecipe r;
  std::string why;
  EXPECT_FALSE(record_recipe(dir_, name_, "-I/elsewhere", r, why));
  EXPECT_EQ(why, "our ccflags are not on Kbuild's compile line");
  fs::remove(dir_ + "/." + name_ + ".ko.cmd");
  EXPECT_FALSE(record_recipe(dir_, name_, "-I/rt -g0 '-DA'", r, why));
  EXPECT_EQ(why, "no command in " + dir_ + "/." + name_ + ".ko.cmd");
  EXPECT_FALSE(recipe_from_text("cc_src gcc\nunknown_field x\n", r));
}

} // namespace
