#include "driver/driver.h"

#include "arch/arch.h"
#include "build/kbuild.h"
#include "build/module_cache.h"
#include "codegen/translate.h"
#include "driver/module_build.h"
#include "driver/options.h"
#include "driver/pass_timer.h"
#include "driver/session_files.h"
#include "dwarf/kernel_debuginfo.h"
#include "driver/sysroot.h"
#include "driver/target.h"
#include "driver/user_objects.h"
#include "driver/user_tables.h"
#include "parse/parser.h"
#include "passes/global_settings.h"
#include "passes/list_probes.h"
#include "passes/print.h"
#include "passes/print_program.h"
#include "passes/procfs_value.h"
#include "passes/resolve_probes.h"
#include "passes/check_arity.h"
#include "passes/autocast.h"
#include "passes/check_guru.h"
#include "passes/check_foreach.h"
#include "passes/check_pragmas.h"
#include "passes/target_writes.h"
#include "passes/check_privilege.h"
#include "tracequery/catalog.h"
#include "passes/check_stats.h"
#include "passes/check_kernel_config.h"
#include "passes/infer_types.h"
#include "passes/load_tapsets.h"
#include "passes/resolve_symbols.h"
#include "passes/warn_unused.h"
#include "passes/elide_unused.h"
#include "passes/elide_empty_probes.h"
#include "passes/entry_values.h"
#include "passes/perf_counters.h"
#include "passes/fold_constants.h"
#include "debuginfo/kernel_debuginfo.h"
#include "passes/fold_defined.h"
#include "passes/return_params.h"
#include "passes/target_vars.h"
#include "passes/user_modules.h"
#include "probes/user_target.h"
#include "passes/check_fetches.h"
#include "run/run.h"
#include "run/run_remote.h"
#include "run/run_ssh.h"
#include "remote/ssh_host.h"
#include "util/progress_line.h"

#include <cstdio>
#include <iostream>
#include <list>
#include <memory>
#include <unistd.h>
#include <sys/utsname.h>

namespace stap {
namespace {

// Pass 1: the user script from a file, stdin or -e.
std::shared_ptr<SourceFile> read_script(const Options &o, Diagnostics &diag) {
  if (o.script_text)
    return std::make_shared<SourceFile>("<input>", *o.script_text);
  if (o.script_file == "-") {
    std::string text((std::istreambuf_iterator<char>(std::cin)), {});
    return std::make_shared<SourceFile>("<stdin>", text);
  }
  std::string err;
  auto f = read_source_file(o.script_file, false, err);
  if (!f)
    diag.error(err);
  return f;
}

// SystemTap's last line for a failed pass, naming the man page that explains
// that pass's errors (docs/man/error::passN.7stap). As in 4.8: not for a
// listing (-l/-L), and not for errors before pass 1 (the target, -d);
// -q does not hide it. Checked against 4.8 with -p1..-p4 failures.
int pass_failed(const Options &opts, int pass) {
  static const char *const what[] = {"", "parse", "analysis", "translation", "compilation",
                                     "run"};
  if (opts.list_pattern.empty())
    std::fprintf(stderr, "Pass %d: %s failed.  [man error::pass%d]\n", pass, what[pass], pass);
  return 1;
}

class Driver {
public:
  Driver(const Options &o) : opts_(o), diag_(std::cerr) {
    diag_.set_suppress_warnings(o.suppress_warnings);
    diag_.set_warnings_fatal(o.warnings_fatal);
  }
  int run();
  // Passes 1 to 4 (or -p's last): 0, or 1 after the failed pass's line.
  int build();
  const std::string &module_path() const { return module_path_; }

private:
  bool find_user_objects();
  bool build_user_tables();
  bool add_user_lines(const UserObject &u, UserTable &t);
  bool pass1_parse();
  bool pass2_elaborate();
  bool pass3_translate();
  bool pass4_build();
  int pass5_run();
  int pass_failed(int pass) { return stap::pass_failed(opts_, pass); }
  void verbose_pass(int pass, const std::string &what) {
    if (opts_.verbose)
      std::fprintf(stderr, "Pass %d: %s %s\n", pass, what.c_str(), timer_.usage().c_str());
  }

  const Options &opts_;
  Diagnostics diag_;
  PassTimer timer_;
  ast::Arena arena_;
  Program program_;
  // The library macros' table owns their .stpm sources: tokens of a macro
  // body point into them until the end (diagnostics in pass 2 and later).
  std::shared_ptr<const parse::MacroTable> library_macros_;
  Target target_;
  // The target kernel's types (BTF), loaded when a probe or @cast first asks.
  std::unique_ptr<debuginfo::KernelDebuginfo> kernel_debuginfo_;
  // The kernel's tracepoint catalogs, read when a kernel.trace point asks.
  tracequery::Catalogs tracepoints_;
  std::unique_ptr<ModuleBuild> build_;
  std::unique_ptr<SessionFiles> files_;
  std::string c_source_, module_path_;
  std::optional<Sysroot> sysroot_;
  std::vector<UserObject> user_objects_; // -d, --ldd
  std::vector<UserTable> user_tables_;
  probes::UserTarget user_target_; // what user-space probe families read and note
};

// -d and --ldd: which user objects the module carries tables for. Checked
// before pass 1, so a wrong path fails at once whatever the last pass.
bool Driver::find_user_objects() {
  UserObjectRequest req{opts_.d_objects, opts_.ldd, opts_.target_command, target_.arch};
  if (!wants_user_objects(req))
    return true;
  sysroot_ = session_sysroot(opts_, target_, diag_);
  if (!sysroot_)
    return false;
  user_objects_ = resolve_user_objects(req, *sysroot_, diag_);
  if (opts_.verbose > 1)
    for (const UserObject &u : user_objects_)
      std::fprintf(stderr, "user object %s (%s)%s%s\n", u.target_path.c_str(), u.reason.c_str(),
                   u.host_path == u.target_path ? "" : ": reading ",
                   u.host_path == u.target_path ? "" : u.host_path.c_str());
  return diag_.errors() == 0;
}

// Pass 3's part for -d: one unwind table per user object.
bool Driver::build_user_tables() {
  // The objects user probes are in, as if named with -d: their symbols
  // and unwind tables serve the probes' backtraces and usymname().
  for (const std::string &path : user_target_.probed_objects) {
    bool have = false;
    for (const UserObject &u : user_objects_)
      have = have || u.target_path == path;
    if (have || !sysroot_)
      continue;
    UserObjectRequest req{{path}, false, "", target_.arch};
    for (UserObject &u : resolve_user_objects(req, *sysroot_, diag_))
      user_objects_.push_back(std::move(u));
  }
  bool want_lines = program_wants_lines(program_);
  ProgressLine progress("building unwind and symbol tables for -d/--ldd (once, then cached)");
  size_t done = 0;
  for (const UserObject &u : user_objects_) {
    progress.set(std::to_string(++done) + "/" + std::to_string(user_objects_.size()) + " " +
                 u.target_path);
    std::string err;
    auto t = build_user_table(u, *sysroot_, err, kDefaultDebugRoot,
                              opts_.disable_cache ? "" : default_table_cache_dir());
    if (!t) {
      diag_.error("cannot build the unwind table of '" + u.target_path + "': " + err);
      continue;
    }
    if (opts_.verbose)
      std::fprintf(stderr,
                   "Pass 3: unwind data for %s: %zu bytes, %zu compressed (%zu FDEs, %zu "
                   "symbols%s%s)%s\n",
                   t->target_path.c_str(), t->table_bytes, t->packed.size(), t->stats.fdes,
                   t->stats.symbols, t->debug_file.empty() ? "" : ", symbols of ",
                   t->debug_file.c_str(), t->from_cache ? ", cached" : "");
    if (want_lines && !add_user_lines(u, *t))
      continue;
    user_tables_.push_back(std::move(*t));
  }
  return diag_.errors() == 0;
}

// The line table of u beside its unwind table t (usymfileline() and its
// siblings): none when the object has no DWARF lines, which is no error.
bool Driver::add_user_lines(const UserObject &u, UserTable &t) {
  std::string err;
  t.lines = build_user_lines(u, t.debug_file, *sysroot_, err,
                             opts_.disable_cache ? "" : default_table_cache_dir());
  if (!err.empty()) {
    diag_.error("cannot build the line table of '" + u.target_path + "': " + err);
    return false;
  }
  if (!opts_.verbose)
    return true;
  if (t.lines.stats.too_big)
    std::fprintf(stderr, "Pass 3: no line data for %s: %zu rows, more than a module carries\n",
                 u.target_path.c_str(), t.lines.stats.rows);
  else if (t.lines.packed.empty())
    std::fprintf(stderr, "Pass 3: no line data for %s: no DWARF lines\n", u.target_path.c_str());
  else
    std::fprintf(stderr, "Pass 3: line data for %s from %s: %zu bytes, %zu compressed (%zu rows, %zu files)%s\n",
                 u.target_path.c_str(), t.lines.source.c_str(), t.lines.table_bytes,
                 t.lines.packed.size(), t.lines.stats.rows, t.lines.stats.files,
                 t.lines.from_cache ? ", cached" : "");
  return true;
}

bool Driver::pass1_parse() {
  timer_.reset();
  auto src = read_script(opts_, diag_);
  if (!src)
    return false;
  parse::ParseOptions po;
  po.env.kernel_release = target_.release;
  po.env.arch = target_.arch;
  po.env.kernel_config = target_.config;
  po.env.guru_mode = opts_.guru;
  if (!opts_.compatible.empty())
    po.env.systemtap_version = opts_.compatible;
  po.script_args = opts_.script_args;
  tapsets::SearchPathConfig path{tapsets::default_roots(opts_.include_dirs), target_.release,
                                 target_.arch};
  tapsets::TapsetFiles library = tapsets::find_tapset_files(path);
  // Library macros first: the user script may use them too.
  po.library_macros = library_macros_ = load_library_macros(library, po, diag_);
  program_.files.push_back(parse::parse_file(src, arena_, diag_, po));
  if (diag_.errors())
    return false;
  TapsetLoadStats loaded = load_tapsets(program_, arena_, index_tapsets(library), po, diag_);
  if (diag_.errors())
    return false;
  verbose_pass(1, "parsed user script and " + std::to_string(loaded.parsed) + " of " +
                      std::to_string(loaded.indexed) + " library scripts");
  if (opts_.last_pass == 1)
    print_file(*program_.files.front(), std::cout);
  return true;
}

bool Driver::pass2_elaborate() {
  timer_.reset();
  const arch::Arch *arch = arch::find_arch(target_.arch);
  if (!arch) {
    diag_.error("no support for the target's architecture '" + target_.arch + "'");
    return false;
  }
  program_.arch = arch;
  dwarf::KernelDebuginfo kernel_dwarf(target_, opts_.d_objects);
  kernel_debuginfo_ = std::make_unique<debuginfo::KernelDebuginfo>(target_, *arch, opts_.verbose);
  user_target_.arch = target_.arch;
  user_target_.target_command = opts_.target_command;
  user_target_.target_pid = opts_.target_pid;
  user_target_.sysroot = [this]() -> const Sysroot * {
    if (!sysroot_)
      sysroot_ = session_sysroot(opts_, target_, diag_);
    return sysroot_ ? &*sysroot_ : nullptr;
  };
  bool listing = !opts_.list_pattern.empty();
  probes::ResolveEnv env{target_, *arch, &kernel_dwarf, kernel_debuginfo_.get(),
                         listing && opts_.list_vars, &user_target_, opts_.guru,
                         opts_.skip_badvars, &tracepoints_};
  resolve_probes(env, program_, arena_, diag_, /*quiet_no_match=*/listing);
  default_user_modules(program_, arena_);
  fold_defined(env, program_, arena_);
  rewrite_procfs_values(program_, arena_, diag_);
  fold_constants(program_, arena_);
  parameters_at_entry(program_, arena_);
  resolve_entry_values(env, program_, arena_, diag_);
  resolve_symbols(program_, arena_, diag_, opts_.unoptimized, listing);
  resolve_perf_counters(program_, diag_);
  resolve_target_vars(env, program_, diag_);
  if (!diag_.errors())
    resolve_autocasts(env, program_, diag_);
  if (!diag_.errors())
    check_target_writes(env, program_, opts_.guru, diag_);
  check_fetches(program_, opts_.guru, diag_);
  if (!diag_.errors())
    check_guru_calls(program_, opts_.guru, diag_);
  if (!diag_.errors())
    check_pragmas(program_, diag_);
  if (!diag_.errors())
    check_foreach_modifications(program_, diag_);
  if (!diag_.errors())
    check_privilege(program_, *parse_privilege(opts_.privilege), diag_);
  if (!diag_.errors())
    check_arity(program_, diag_);
  if (!diag_.errors() && !opts_.unoptimized)
    warn_unused_locals(program_, diag_);
  if (!diag_.errors())
    infer_types(program_, diag_);
  if (!diag_.errors() && !opts_.unoptimized)
    elide_unused_assignments(program_, diag_);
  if (!diag_.errors() && !opts_.unoptimized && !listing)
    drop_unused_locals(program_);
  if (!diag_.errors() && !opts_.unoptimized && !listing)
    elide_empty_probes(program_, diag_);
  if (!diag_.errors())
    check_global_settings(program_, opts_.global_sets, diag_);
  if (!diag_.errors())
    check_stats(program_, diag_);
  if (!diag_.errors())
    check_kernel_config(program_, target_, diag_);
  if (diag_.errors())
    return false;
  if (listing)
    return list_probes(program_, opts_.list_vars, std::cout);
  if (program_.probes.empty()) {
    diag_.error("no probes found");
    return false;
  }
  verbose_pass(2, "analyzed script: " + std::to_string(program_.probes.size()) + " probe(s), " +
                      std::to_string(program_.functions.size()) + " function(s), 0 embed(s), " +
                      std::to_string(program_.globals.size()) + " global(s)");
  if (opts_.last_pass == 2)
    print_program(program_, std::cout);
  return true;
}

bool Driver::pass3_translate() {
  timer_.reset();
  check_perf_reads(program_, diag_); // where 4.8 rejects them too
  if (diag_.errors())
    return false;
  if (!build_user_tables())
    return false;
  std::vector<codegen::EmbeddedTable> embedded;
  for (const UserTable &t : user_tables_)
    embedded.push_back({t.target_path, t.packed.size(), t.table_bytes, t.hash,
                        t.lines.packed.size(), t.lines.table_bytes, t.lines.hash});
  c_source_ = codegen::translate_program(program_, diag_, embedded);
  if (diag_.errors())
    return false;
  build_ = std::make_unique<ModuleBuild>(opts_, target_, c_source_, user_tables_);
  files_ = std::make_unique<SessionFiles>(opts_, build_->module_name(), diag_);
  if (!files_->ok())
    return false;
  if (build_->hit() && opts_.verbose)
    std::fprintf(stderr, "Pass 3: using cached %s\n", build_->entry()->path(".c").c_str());
  else
    verbose_pass(3, "translated to C into \"" + files_->c_path() + "\"");
  if (opts_.last_pass == 3)
    std::cout << c_source_;
  return true;
}

bool Driver::pass4_build() {
  timer_.reset();
  std::string err;
  if (target_.build_dir.empty()) {
    build::kernel_build_dir(target_.release, err);
    diag_.error(err);
    return false;
  }
  if (build_->hit()) {
    module_path_ = build_->cached_ko();
    if (opts_.verbose)
      std::fprintf(stderr, "Pass 4: using cached %s\n", module_path_.c_str());
  } else {
    module_path_ = build_->build(files_->dir(), diag_);
    if (module_path_.empty())
      return false;
  }
  module_path_ = files_->publish_module(module_path_, build_->cached_ko(), opts_.last_pass == 4);
  if (!build_->hit())
    verbose_pass(4, "compiled C into \"" + module_path_ + "\"");
  if (opts_.last_pass == 4)
    std::cout << module_path_ << "\n";
  return true;
}

int Driver::pass5_run() {
  if (opts_.verbose)
    std::fprintf(stderr, "Pass 5: starting run.\n");
  timer_.reset();
  int rc = opts_.remote.empty() ? run::run_local(opts_, module_path_)
                                : run::run_remote(opts_, target_, module_path_, diag_);
  verbose_pass(5, "run completed");
  return rc;
}

int Driver::build() {
  if (!resolve_target(opts_, target_, diag_))
    return 1;
  if (!find_user_objects())
    return 1;
  if (!pass1_parse())
    return pass_failed(1);
  if (opts_.last_pass == 1)
    return 0;
  if (!pass2_elaborate())
    return pass_failed(2);
  if (opts_.last_pass == 2)
    return 0;
  if (!pass3_translate())
    return pass_failed(3);
  if (opts_.last_pass == 3)
    return 0;
  if (!pass4_build())
    return pass_failed(4);
  return 0;
}

int Driver::run() {
  if (int rc = build(); rc != 0 || opts_.last_pass < 5)
    return rc;
  int rc = pass5_run();
  if (rc != 0)
    pass_failed(5);
  return rc;
}

// --remote=ssh://...: asks each host for its kernel, builds the module once
// per kernel release (one Driver each), then runs every host at once.
int run_on_ssh_hosts(const Options &opts) {
  Diagnostics diag(std::cerr);
  char control_tmpl[] = "/tmp/stap-ssh.XXXXXX"; // ssh's sockets: short paths
  if (!mkdtemp(control_tmpl)) {
    diag.error("cannot create a directory in /tmp for ssh's connections");
    return 1;
  }
  std::string control_dir = control_tmpl;
  std::vector<std::unique_ptr<remote::SshHost>> hosts;
  std::list<Options> per_release_opts; // each Driver keeps a reference
  std::vector<std::pair<std::string, std::unique_ptr<Driver>>> builds;
  auto build_for = [&](const std::string &release) -> Driver * {
    for (auto &b : builds)
      if (b.first == release)
        return b.second.get();
    return nullptr;
  };
  int rc = 0;
  for (size_t i = 0; i < opts.ssh_remotes.size() && rc == 0; ++i) {
    std::string err;
    auto url = remote::parse_ssh_url(opts.ssh_remotes[i], err);
    if (url)
      hosts.push_back(
          std::make_unique<remote::SshHost>(*url, control_dir + "/" + std::to_string(i)));
    if (!url || !hosts.back()->probe(err)) {
      diag.error(err);
      rc = 1;
      break;
    }
    const remote::SshHost &h = *hosts.back();
    if (opts.verbose)
      std::fprintf(stderr, "%s: kernel %s (%s)\n", url->url.c_str(), h.release().c_str(),
                   h.arch().c_str());
    if (!opts.kernel_release.empty() && opts.kernel_release != h.release()) {
      diag.error("-r " + opts.kernel_release + " conflicts with --remote=" + url->url +
                 ", which runs " + h.release());
      rc = 1;
    }
  }
  for (size_t i = 0; i < hosts.size() && rc == 0; ++i) {
    const std::string &release = hosts[i]->release();
    if (build_for(release))
      continue;
    Options &o = per_release_opts.emplace_back(opts);
    o.kernel_release = release;
    builds.emplace_back(release, std::make_unique<Driver>(o));
    rc = builds.back().second->build();
  }
  if (rc == 0 && opts.last_pass == 5) {
    std::vector<run::SshRun> runs;
    for (auto &h : hosts)
      runs.push_back({h.get(), build_for(h->release())->module_path()});
    if (opts.verbose)
      std::fprintf(stderr, "Pass 5: starting run.\n");
    rc = run::run_ssh(opts, runs, diag);
    if (rc != 0)
      pass_failed(opts, 5);
  }
  for (auto &h : hosts)
    h->close();
  builds.clear();
  rmdir(control_dir.c_str());
  return rc;
}

} // namespace

int run_stap(int argc, char **argv) {
  bool exit_now = false;
  auto opts = parse_options(argc, argv, exit_now);
  if (!opts)
    return 1;
  if (exit_now)
    return 0;
  if (opts->clean_cache) { // SystemTap prunes the cache and exits
    build::ModuleCache(build::default_cache_dir()).clean(true, opts->verbose);
    return 0;
  }
  if (!opts->ssh_remotes.empty())
    return run_on_ssh_hosts(*opts);
  Driver d(*opts);
  return d.run();
}

} // namespace stap
