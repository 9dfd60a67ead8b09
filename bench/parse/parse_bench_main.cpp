// parse-bench: times pass 1 over the files `stap -p1` parses for an x86_64
// kernel target: the tapset root's and linux/'s .stpm macro files and
// .stp files, plus the x86_64/ and linux/x86_64/ ones (484 files in
// SystemTap 4.8). Reports the best of ROUNDS rounds for each stage:
// lexing only, lexing + preprocessing, and the whole parse into the AST.
//
//   parse-bench [TAPSET_DIR [ROUNDS]]
#include "parse/lexer.h"
#include "parse/parser.h"
#include "parse/preprocess.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

namespace fs = std::filesystem;
using namespace stap;

namespace {

std::vector<std::shared_ptr<SourceFile>> read_dir(const fs::path &dir, const std::string &ext) {
  std::vector<fs::path> paths;
  std::error_code ec;
  for (auto &e : fs::directory_iterator(dir, ec))
    if (e.is_regular_file() && e.path().extension() == ext)
      paths.push_back(e.path());
  std::sort(paths.begin(), paths.end());
  std::vector<std::shared_ptr<SourceFile>> out;
  for (auto &p : paths) {
    std::string err;
    if (auto f = read_source_file(p.string(), true, err))
      out.push_back(f);
  }
  return out;
}

template <typename F> double best_ms(int rounds, F &&f) {
  double best = 1e300;
  for (int r = 0; r < rounds; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    std::chrono::duration<double, std::milli> d = std::chrono::steady_clock::now() - t0;
    best = std::min(best, d.count());
  }
  return best;
}

} // namespace

int main(int argc, char **argv) {
  fs::path root = argc > 1 ? argv[1] : "/usr/share/systemtap/tapset";
  int rounds = argc > 2 ? std::atoi(argv[2]) : 10;
  std::vector<std::shared_ptr<SourceFile>> macro_files, script_files;
  for (const fs::path &dir : {root, root / "linux"})
    for (auto &f : read_dir(dir, ".stpm"))
      macro_files.push_back(f);
  for (const fs::path &dir : {root, root / "linux", root / "x86_64", root / "linux/x86_64"})
    for (auto &f : read_dir(dir, ".stp"))
      script_files.push_back(f);
  if (script_files.empty()) {
    std::cerr << "parse-bench: no tapsets under " << root << "\n";
    return 1;
  }
  size_t bytes = 0;
  for (auto *v : {&macro_files, &script_files})
    for (auto &f : *v)
      bytes += f->text().size();

  std::ostringstream sink;
  Diagnostics diag(sink);
  parse::ParseOptions opts;
  opts.env.kernel_release = "6.1.0-56-amd64";
  opts.env.arch = "x86_64";
  auto load_macros = [&] {
    auto table = std::make_shared<parse::MacroTable>();
    for (auto &f : macro_files)
      parse::load_macro_file(f, *table, diag, opts);
    return table;
  };
  opts.library_macros = load_macros();

  size_t tokens = 0;
  double lex_ms = best_ms(rounds, [&] {
    tokens = 0;
    for (auto &f : script_files)
      tokens += parse::lex(*f, diag).size();
  });
  double pre_ms = best_ms(rounds, [&] {
    for (auto &f : script_files) {
      parse::MacroTable local;
      parse::preprocess(parse::lex(*f, diag), opts, local, opts.library_macros.get(), diag);
    }
  });
  size_t nodes = 0;
  double parse_ms = best_ms(rounds, [&] {
    ast::Arena arena;
    opts.library_macros = load_macros();
    for (auto &f : script_files)
      parse::parse_file(f, arena, diag, opts);
    nodes = arena.size();
  });

  std::printf("files: %zu .stpm + %zu .stp, %.1f KiB, %zu tokens, %zu AST nodes\n",
              macro_files.size(), script_files.size(), bytes / 1024.0, tokens, nodes);
  std::printf("best of %d rounds:\n", rounds);
  std::printf("  lex                        %8.2f ms\n", lex_ms);
  std::printf("  lex + preprocess           %8.2f ms\n", pre_ms);
  std::printf("  whole pass 1 (macros, AST) %8.2f ms  (%.1f MiB/s)\n", parse_ms,
              bytes / 1048576.0 / (parse_ms / 1000.0));
  std::printf("errors: %u\n", diag.errors());
  return diag.errors() ? 1 : 0;
}
