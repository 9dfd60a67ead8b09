// A script test: a .stp file whose comments say what running it must give.
//
//   probe begin { printf("hello %d\n", 42); exit() }
//   // expect: hello 42
//
// Directives (each a `//` comment line anywhere in the file):
//   // expect: TEXT          the next line of stdout (all stdout lines, in order)
//   // expect-stderr: TEXT   the next line of stderr (when given, all of stderr)
//   // status: N             the exit status (default 0)
//   // stap: ARGS            extra stap options (shell words)
//   // staprun: ARGS         extra staprun options, e.g. -c 'CMD'
//   // args: WORDS           the script's arguments ($1, @1...), after it
//   // guest: COMMAND        the guest's shell command instead of `staprun ARGS
//                            MODULE`; MODULE stands for the module's file name
//   // expect-match: REGEX   some stdout line matches REGEX (ECMAScript, searched
//                            anywhere in the line); with no `expect:` lines
//                            the rest of stdout is not compared
//   // script: PATH          the script to compile is PATH (relative to this
//                            file's directory), e.g. one of examples/; this
//                            file only holds the directives
//   // pass: N               stop after pass N (1-4): the test runs stap only,
//                            on the host; without it the module runs in the VMs
//   // arch: ARCH            only on ARCH (x86_64 or i386); with pass: N, stap
//                            gets -r the newest installed kernel of ARCH
//   // program: NAME ARGS    a C program the job needs: `cc -m64|-m32 -O2 -g -o
//                            NAME ARGS` in the script's directory, for each
//                            architecture; NAME is in the job's directory (the
//                            guest command's working directory: -c ./NAME)
//                            BUILD/ (at the start of a word) in the stap,
//                            staprun, guest and expect lines stands for the
//                            directory it was built in, under the host's /tmp:
//                            -c BUILD/NAME runs it at its host path; in
//                            the args line `process(@1)` names it to the
//                            script, and in a program line (after NAME)
//                            an earlier program (a library to link)
//   // kmod: NAME            a kernel module of ours, testsuite/kmod/NAME,
//                            built with the target's Kbuild: stap gets
//                            -d NAME.ko (its DWARF) and the guest loads it
//                            (insmod) before the job's command
#pragma once
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace stap::testing {

struct ScriptSpec {
  std::string path, name; // name: DIR_FILE of the path, a C identifier
  std::string script; // the file stap compiles: `path`, or the `script:` directive's
  std::vector<std::string> stdout_lines, stderr_lines, stdout_matches;
  bool check_stderr = false;
  int status = 0;
  std::string stap_args, staprun_args, guest_command, script_args;
  int last_pass = 5;
  int cpus = 1; // the guest's CPUs (scripts with the same count share a boot)
  std::string arch; // only on this architecture ("": both)
  struct Program {
    std::string name, args; // output file name, cc arguments (sources, flags)
  };
  std::vector<Program> programs;
  std::string kmod; // testsuite/kmod/NAME, loaded before the job
};

// For test names and failure messages.
inline void PrintTo(const ScriptSpec &s, std::ostream *os) { *os << s.path; }

std::optional<ScriptSpec> read_script_spec(const std::string &path, std::string &err);
// Every *.stp under `dir`, sorted by name.
std::vector<std::string> find_scripts(const std::string &dir);
// `text` with every BUILD/ that starts a word replaced by `dir`/.
std::string substitute_build_dir(const std::string &text, const std::string &dir);
// The spec with BUILD/ replaced in its stap, staprun, guest, args, program
// and expect lines.
ScriptSpec with_build_dir(ScriptSpec spec, const std::string &dir);
// Splits text into lines (a final newline does not make an empty line).
std::vector<std::string> split_lines(const std::string &text);

} // namespace stap::testing
