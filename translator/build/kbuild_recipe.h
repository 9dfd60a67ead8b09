// Pass 4 without make: the commands Kbuild ran to build one module,
// recorded from the .cmd files it leaves beside each target, as templates
// to run again for the next module of the same kernel (direct_build.h).
//
// A template is a shell command with placeholders: @DIR@ (the module's
// directory), @NAME@ (its name), @CCFLAGS@ (our ccflags-y: runtime include
// paths, fixed flags, -D switches), and in the precompiled-header variants
// @PCH@ (the header kernel_pch.h builds) and @DEFS@ (the KBUILD_* macros
// the compile line defined, moved to a file included after it: see
// with_pch()).
#pragma once
#include <string>
#include <vector>

namespace stap::build {

struct KbuildRecipe {
  std::string cc_src;   // NAME_src.c -> NAME_src.o, then objtool on it ("CC ; OBJTOOL")
  std::string as_blobs; // NAME_uobjects.S -> .o; "" if the recorded module had no blobs
  std::string ld_o;     // ld -r: NAME.o from the objects listed in NAME.mod
  std::string modpost;  // NAME.mod.c (and Module.symvers) from modules.order
  std::string cc_mod;   // NAME.mod.c -> NAME.mod.o
  std::string ld_ko;    // NAME.o + NAME.mod.o -> NAME.ko
  // Kbuild's forced includes (-include, in order) and NAME.mod.c's leading
  // #include/#define lines: what the kernel's precompiled header holds.
  std::vector<std::string> forced_includes;
  std::vector<std::string> mod_c_prelude;
};

// Reads the recipe of the module NAME just built by Kbuild in DIR.
// `ccflags` is our ccflags-y as it appears on Kbuild's compile line
// (kbuild_ccflags_text()). NAME must not occur in the commands except as
// the module's name (callers record only modules named by their cache key).
// False, with `why`, if a file is missing or a command is not as expected.
bool record_recipe(const std::string &dir, const std::string &name, const std::string &ccflags,
                   KbuildRecipe &out, std::string &why);

// The recipe as text (one "field value" line each) and back.
std::string recipe_to_text(const KbuildRecipe &r);
bool recipe_from_text(const std::string &text, KbuildRecipe &out);

// `tmpl` with each placeholder replaced.
struct RecipeValues {
  std::string dir, name, ccflags, pch, defs;
};
std::string instantiate(const std::string &tmpl, const RecipeValues &v);

// A compile template (cc_src or cc_mod) made to start from a precompiled
// header: the forced includes and the dependency file (-Wp,-MMD) are
// dropped, the KBUILD_* -D options are moved into `defs` (#define lines, a
// template too), and `-g0 -include @PCH@ -include @DEFS@` come last. GCC
// uses a precompiled header only if every macro defined before it is
// defined as when it was built; the module's name differs from one module
// to the next, so it is defined after. Both compiles and the header are
// without debug information: a header built with -g turns the unwind
// directives of a -g0 compile into an .eh_frame section, and the module
// loses its debug information anyway (kbuild.cpp, strip_debug()).
// Anything after the compile (" ; objtool") is kept.
std::string with_pch(const std::string &compile, std::string &defs);

// The command that precompiles @PCH@ (a header) into @PCH@.gch with the
// flags of cc_mod and -g0.
std::string pch_command(const KbuildRecipe &r);

} // namespace stap::build
