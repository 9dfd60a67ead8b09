// parse_corpus: parses every file of SystemTap's tapset library or example
// scripts and checks the -p1 round trip on each (print, reparse, print
// again: identical). Exit status 0 only if every file passes; 77 (skipped)
// if the corpus is not installed.
//
//   parse_corpus tapsets TAPSET_DIR
//   parse_corpus examples EXAMPLES_DIR TAPSET_DIR
#include "corpus.h"

#include "passes/print.h"

#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

using namespace stap;

namespace {

std::string print(const ast::File &f) {
  std::ostringstream s;
  print_file(f, s);
  return s.str();
}

// Files of the corpus that are not valid SystemTap, and the diagnostic
// they must get. The band-aid template has `{...}` where a probe body goes.
const std::map<std::string, std::string> invalid_files = {
    {"security-bandaid-template.stp", ":31:32: error: expected statement before '.'\n"},
};

// Parses one file and its printed form; reports what went wrong.
bool check(const corpus::CorpusFile &cf, std::ostream &log) {
  ast::Arena arena;
  std::ostringstream errs;
  Diagnostics diag(errs);
  auto file = parse::parse_file(cf.source, arena, diag, *cf.options);
  auto invalid = invalid_files.find(std::filesystem::path(cf.source->name()).filename());
  if (invalid != invalid_files.end()) {
    if (errs.str().find(invalid->second) != std::string::npos)
      return true;
    log << "FAIL not rejected as expected (" << invalid->second << "): " << cf.source->name()
        << "\n" << errs.str();
    return false;
  }
  if (diag.errors()) {
    log << "FAIL parse: " << cf.source->name() << "\n" << errs.str();
    return false;
  }
  std::string first = print(*file);
  auto printed = std::make_shared<SourceFile>(cf.source->name() + " (printed)", first,
                                              cf.source->privileged());
  auto again = parse::parse_file(printed, arena, diag, *cf.options);
  if (diag.errors()) {
    log << "FAIL reparse of printed form: " << cf.source->name() << "\n" << errs.str();
    return false;
  }
  std::string second = print(*again);
  if (first != second) {
    size_t at = std::mismatch(first.begin(), first.end(), second.begin(), second.end()).first -
                first.begin();
    size_t from = at > 60 ? at - 60 : 0;
    log << "FAIL round trip: " << cf.source->name() << " differs at byte " << at << ":\n  "
        << first.substr(from, 120) << "\n  " << second.substr(from, 120) << "\n";
    return false;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  std::string mode = argc > 2 ? argv[1] : "";
  if ((mode != "tapsets" || argc != 3) && (mode != "examples" || argc != 4)) {
    std::cerr << "usage: parse_corpus tapsets TAPSET_DIR\n"
                 "       parse_corpus examples EXAMPLES_DIR TAPSET_DIR\n";
    return 2;
  }
  for (int i = 2; i < argc; ++i)
    if (!std::filesystem::is_directory(argv[i])) {
      std::cout << "SKIP: " << argv[i] << " is not installed\n";
      return 77;
    }
  Diagnostics diag(std::cerr);
  auto files = mode == "tapsets" ? corpus::load_tapsets(argv[2], diag)
                                 : corpus::load_examples(argv[2], argv[3], diag);
  size_t passed = 0;
  for (const auto &f : files)
    passed += check(f, std::cout);
  std::cout << passed << " of " << files.size() << " " << mode
            << " files parse and round-trip\n";
  return passed == files.size() && !diag.errors() && !files.empty() ? 0 : 1;
}
