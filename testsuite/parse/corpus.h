// The parser's test corpus: SystemTap's tapset library and example scripts
// (Debian packages systemtap-common and systemtap-doc, used as test data
// only), loaded with the options each file is parsed with.
#pragma once
#include "parse/parser.h"

#include <memory>
#include <string>
#include <vector>

namespace stap::corpus {

struct CorpusFile {
  std::shared_ptr<SourceFile> source;
  std::shared_ptr<const parse::ParseOptions> options;
};

// The environment the corpus is preprocessed for: the Debian 12 amd64
// kernel this machine builds against, with its configuration.
parse::PreprocessorEnv host_env();

// Every *.stp file under `tapset_dir`, privileged, each with the macros of
// its runtime (the root's .stpm files plus those of linux/, dyninst/ or
// bpf/). Errors in the macro files go to `diag`.
std::vector<CorpusFile> load_tapsets(const std::string &tapset_dir, Diagnostics &diag);

// Every *.stp file under `examples_dir`, as user scripts in guru mode with
// the linux tapset macros and placeholder script arguments.
std::vector<CorpusFile> load_examples(const std::string &examples_dir,
                                      const std::string &tapset_dir, Diagnostics &diag);

} // namespace stap::corpus
