// libFuzzer target for pass 1: any bytes are a script. The parser must not
// crash, leak or hang, and whatever it accepts must survive the -p1 round
// trip (print, parse, print again: identical, no errors), else abort().
//
// The first byte picks the options: bit 0 tapset (privileged) file, bit 1
// guru mode, bit 2 two script arguments.
#include "parse/parser.h"
#include "passes/print.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

using namespace stap;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  uint8_t mode = data[0];
  std::string text(reinterpret_cast<const char *>(data + 1), size - 1);
  parse::ParseOptions opts;
  opts.env.kernel_release = "6.1.0-56-amd64";
  opts.env.arch = "x86_64";
  opts.env.guru_mode = mode & 2;
  if (mode & 4)
    opts.script_args = {"kernel.function(\"f\")", "7"};

  ast::Arena arena;
  std::ostringstream errs;
  Diagnostics diag(errs);
  auto src = std::make_shared<SourceFile>("<fuzz>", text, mode & 1);
  auto file = parse::parse_file(src, arena, diag, opts);
  std::ostringstream first;
  print_file(*file, first); // printing a partial tree must be safe too
  if (diag.errors())
    return 0;

  auto printed = std::make_shared<SourceFile>("<printed>", first.str(), mode & 1);
  auto again = parse::parse_file(printed, arena, diag, opts);
  std::ostringstream second;
  print_file(*again, second);
  if (diag.errors() || first.str() != second.str()) {
    std::fprintf(stderr, "round trip failed\n--- input\n%s\n--- printed\n%s\n--- reprinted\n%s\n%s",
                 text.c_str(), first.str().c_str(), second.str().c_str(), errs.str().c_str());
    std::abort();
  }
  return 0;
}
