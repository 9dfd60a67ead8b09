#include "corpus.h"

#include "parse/preprocess.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace stap::corpus {
namespace {

std::vector<fs::path> files_with_extension(const fs::path &dir, const std::string &ext,
                                           bool recursive) {
  std::vector<fs::path> out;
  std::error_code ec;
  if (recursive) {
    for (auto &e : fs::recursive_directory_iterator(dir, ec))
      if (e.is_regular_file() && e.path().extension() == ext)
        out.push_back(e.path());
  } else {
    for (auto &e : fs::directory_iterator(dir, ec))
      if (e.is_regular_file() && e.path().extension() == ext)
        out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::shared_ptr<SourceFile> read(const fs::path &p, bool privileged, Diagnostics &diag) {
  std::string err;
  auto src = read_source_file(p.string(), privileged, err);
  if (!src)
    diag.error(err);
  return src;
}

// The macros of one runtime: the root's .stpm files, then its own.
std::shared_ptr<parse::MacroTable> runtime_macros(const fs::path &root, const char *runtime,
                                                  const parse::ParseOptions &opts,
                                                  Diagnostics &diag) {
  auto table = std::make_shared<parse::MacroTable>();
  for (const fs::path &dir : {root, root / runtime})
    for (const auto &p : files_with_extension(dir, ".stpm", false))
      if (auto src = read(p, true, diag))
        parse::load_macro_file(src, *table, diag, opts);
  return table;
}

} // namespace

parse::PreprocessorEnv host_env() {
  parse::PreprocessorEnv env;
  env.kernel_release = "6.1.0-56-amd64";
  env.arch = "x86_64";
  std::ifstream config("/boot/config-" + env.kernel_release);
  for (std::string line; std::getline(config, line);) {
    size_t eq = line.find('=');
    if (line.rfind("CONFIG_", 0) == 0 && eq != std::string::npos) {
      std::string v = line.substr(eq + 1);
      if (v.size() >= 2 && v.front() == '"' && v.back() == '"')
        v = v.substr(1, v.size() - 2);
      env.kernel_config[line.substr(0, eq)] = v;
    }
  }
  return env;
}

std::vector<CorpusFile> load_tapsets(const std::string &tapset_dir, Diagnostics &diag) {
  fs::path root(tapset_dir);
  struct Runtime {
    const char *dir, *name;
  };
  const Runtime runtimes[] = {{"linux", "kernel"}, {"dyninst", "dyninst"}, {"bpf", "bpf"}};
  std::vector<CorpusFile> out;
  for (const Runtime &rt : runtimes) {
    auto opts = std::make_shared<parse::ParseOptions>();
    opts->env = host_env();
    opts->env.runtime = rt.name;
    opts->library_macros = runtime_macros(root, rt.dir, *opts, diag);
    for (const auto &p : files_with_extension(root, ".stp", true)) {
      // A runtime's own directory goes with that runtime; everything
      // outside the runtime directories goes with the kernel runtime.
      std::string top = fs::relative(p, root).begin()->string();
      bool in_runtime_dir = top == "linux" || top == "dyninst" || top == "bpf";
      if (in_runtime_dir ? top != rt.dir : std::string(rt.dir) != "linux")
        continue;
      if (auto src = read(p, true, diag))
        out.push_back({src, opts});
    }
  }
  return out;
}

std::vector<CorpusFile> load_examples(const std::string &examples_dir,
                                      const std::string &tapset_dir, Diagnostics &diag) {
  parse::ParseOptions base;
  base.env = host_env();
  base.env.guru_mode = true;
  base.library_macros = runtime_macros(tapset_dir, "linux", base, diag);
  // Placeholder script arguments: a number fits most uses of $N and any
  // string fits @N; an argument used as a probe point (`probe $1 {`,
  // `probe %( $# >= 1 %? $1 %: never %)`) gets a probe point.
  // And `$3(x)` names a function.
  static const std::regex probe_arg(R"(probe\s+(?:%\([^%]*%\?\s*)?\$(\d))");
  static const std::regex cond_probe_arg(R"(%\([^%]*%\?\s*\$(\d)\s*%:\s*never)");
  static const std::regex function_arg(R"(\$(\d)\()");
  std::vector<CorpusFile> out;
  for (const auto &p : files_with_extension(examples_dir, ".stp", true)) {
    auto src = read(p, false, diag);
    if (!src)
      continue;
    auto opts = std::make_shared<parse::ParseOptions>(base);
    opts->script_args.assign(9, "1");
    const std::string &text = src->text();
    auto fill = [&](const std::regex &re, const char *value) {
      for (std::sregex_iterator m(text.begin(), text.end(), re), end; m != end; ++m)
        opts->script_args[std::stoul((*m)[1]) - 1] = value;
    };
    fill(probe_arg, "kernel.function(\"vfs_read\")");
    fill(cond_probe_arg, "kernel.function(\"vfs_read\")");
    fill(function_arg, "sprint");
    out.push_back({src, opts});
  }
  return out;
}

} // namespace stap::corpus
