// stap-ustack: prints a process's user stack, unwound by unwind/ from
// tables built by translator/symtab, in SystemTap's print_ubacktrace format.
//
//   stap-ustack [--syscall NAME] [--scrub=none|syscall] [--no-randomize]
//               [--max-frames N] [-o FILE] [-v] -- COMMAND ARGS...
//   stap-ustack --pid PID [--scrub=...] [-o FILE] [-v]
#include "address_space.h"
#include "backtrace.h"
#include "target_regs.h"
#include "tracer.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

using namespace ustack;

namespace {

struct Options {
  LaunchOptions launch;
  pid_t pid = 0;
  Scrub scrub = Scrub::None;
  unsigned max_frames = 256;
  std::string output;
  bool verbose = false;
};

[[noreturn]] void usage(const char *msg) {
  if (msg)
    std::fprintf(stderr, "stap-ustack: %s\n", msg);
  std::fprintf(stderr,
               "usage: stap-ustack [--syscall NAME] [--scrub=none|syscall] "
               "[--no-randomize] [--max-frames N] [-o FILE] [-v] -- COMMAND "
               "ARGS...\n"
               "       stap-ustack --pid PID [--scrub=...] [-o FILE] [-v]\n");
  std::exit(2);
}

Options parse_args(int argc, char **argv) {
  Options o;
  int i = 1;
  auto value = [&](const char *opt) -> std::string {
    if (i + 1 >= argc)
      usage((std::string(opt) + " needs a value").c_str());
    return argv[++i];
  };
  for (; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--") {
      ++i;
      break;
    } else if (a == "--syscall") {
      o.launch.syscall = value("--syscall");
    } else if (a == "--pid") {
      o.pid = static_cast<pid_t>(std::atol(value("--pid").c_str()));
    } else if (a.rfind("--scrub=", 0) == 0) {
      if (!parse_scrub(a.substr(8), o.scrub))
        usage("--scrub takes none or syscall");
    } else if (a == "--no-randomize") {
      o.launch.no_randomize = true;
    } else if (a == "--max-frames") {
      o.max_frames = static_cast<unsigned>(std::atoi(value("--max-frames").c_str()));
    } else if (a == "-o") {
      o.output = value("-o");
    } else if (a == "-v") {
      o.verbose = true;
    } else if (a[0] == '-') {
      usage(("unknown option " + a).c_str());
    } else {
      break;
    }
  }
  for (; i < argc; ++i)
    o.launch.argv.push_back(argv[i]);
  if (o.pid == 0 && o.launch.argv.empty())
    usage("no command and no --pid");
  if (o.pid != 0 && !o.launch.argv.empty())
    usage("--pid and a command exclude each other");
  return o;
}

// Prints the stack of one stopped thread. The address space is built once
// per process (threads share it).
class StackPrinter {
public:
  StackPrinter(const Options &o, FILE *out) : opts_(o), out_(out) {}

  void operator()(pid_t pid, pid_t tid) {
    if (!mem_) {
      mem_ = std::make_unique<ProcessMemory>(pid);
      std::string err;
      if (!space_.load(pid, *mem_, err))
        std::fprintf(stderr, "stap-ustack: %s\n", err.c_str());
      if (opts_.verbose)
        for (const auto &obj : space_.objects())
          if (!obj->has_table)
            std::fprintf(stderr, "stap-ustack: no table for %s: %s\n",
                         obj->path.c_str(), obj->error.c_str());
    }
    uw_regs regs;
    if (!read_target_regs(tid, regs)) {
      std::fprintf(stderr, "stap-ustack: cannot read registers of %d\n", tid);
      return;
    }
    scrub_regs(regs, opts_.scrub);
    if (opts_.pid)
      std::fprintf(out_, "thread %d:\n", tid);
    Walk w = walk_stack(regs, space_, *mem_, opts_.max_frames);
    for (const Frame &f : w.frames)
      std::fprintf(out_, "%s\n",
                   format_frame(f, space_, regs.arch == UW_ARCH_I386).c_str());
    if (opts_.verbose)
      std::fprintf(stderr, "stap-ustack: %zu frames, stopped: %s\n",
                   w.frames.size(), uw_strerror(w.stop));
    std::fflush(out_);
  }

private:
  const Options &opts_;
  FILE *out_;
  std::unique_ptr<ProcessMemory> mem_;
  AddressSpace space_;
};

} // namespace

int main(int argc, char **argv) {
  Options o = parse_args(argc, argv);
  FILE *out = stdout;
  if (!o.output.empty() && !(out = std::fopen(o.output.c_str(), "w"))) {
    std::fprintf(stderr, "stap-ustack: cannot write %s\n", o.output.c_str());
    return 2;
  }
  StackPrinter printer(o, out);
  std::string err;
  int rc;
  if (o.pid) {
    rc = attach_process(o.pid, std::ref(printer), err) ? 0 : 1;
  } else {
    rc = run_command(o.launch, std::ref(printer), err);
    if (rc < 0)
      rc = 1;
  }
  if (!err.empty())
    std::fprintf(stderr, "stap-ustack: %s\n", err.c_str());
  if (out != stdout)
    std::fclose(out);
  return rc;
}
