// Process life events and system calls (runtime/probes/process_events.c):
//   process.begin, process.end, process.thread.begin, process.thread.end,
//   process.syscall, process.syscall.return
//   process("PATH").begin ..., process(PID).begin ...
// Reached through the uprobe family's "process" root. Without a path or PID
// every process is seen (with -c or -x, the target's process tree only, as
// in SystemTap); a path selects processes running that program, a PID
// that process.
#include "codegen/emitter.h"
#include "codegen/module_writer.h"
#include "probes/family.h"
#include "probes/path_glob.h"
#include "probes/user_target.h"
#include "symtab/elf_image.h"

namespace stap::probes {
namespace {

class ProcessEventsFamily final : public ProbeFamily {
public:
  std::string_view probe_type(const ResolvedProbe &probe) const override {
    return probe.c_fields.find("STP_PROC_SYSCALL") != std::string::npos ? "utrace_syscall" : "utrace";
  }
  std::vector<std::string_view> roots() const override { return {}; }
  std::vector<PointShape> shapes() const override { return {}; }

  bool resolve(const ResolveEnv &env, ast::ProbeDecl &decl, ast::ProbePoint &point,
               std::vector<ResolvedProbe> &out, Diagnostics &diag) const override {
    const auto &cs = point.components;
    size_t i = 1;
    std::string kind;
    if (cs[i].functor == "syscall") {
      // $syscall, $arg1..$arg6 / $return: from the thread's registers
      if (cs[i].arg || (i + 1 < cs.size() && (cs[i + 1].functor != "return" ||
                                              cs[i + 1].arg || i + 2 < cs.size()))) {
        const auto &bad = cs[i].arg ? cs[i] : cs[i + 1];
        diag.error(bad.loc, "unexpected '" + component_string(bad) + "' in '" +
                                probe_point_string(point) + "'");
        return false;
      }
      kind = i + 1 < cs.size() ? "STP_PROC_SYSCALL_RETURN" : "STP_PROC_SYSCALL";
      return resolve_filter(env, decl, point, kind, out, diag);
    }
    bool thread = cs[i].functor == "thread";
    if (thread)
      ++i;
    if (i >= cs.size() || (cs[i].functor != "begin" && cs[i].functor != "end") || cs[i].arg) {
      diag.error(i < cs.size() ? cs[i].loc : cs.back().loc,
                 "expected begin or end in '" + probe_point_string(point) + "'");
      return false;
    }
    bool begin = cs[i].functor == "begin";
    if (i + 1 < cs.size()) {
      diag.error(cs[i + 1].loc, "unexpected '" + cs[i + 1].functor + "' in '" +
                                    probe_point_string(point) + "'");
      return false;
    }
    kind = thread ? (begin ? "STP_PROC_THREAD_BEGIN" : "STP_PROC_THREAD_END")
                  : (begin ? "STP_PROC_BEGIN" : "STP_PROC_END");
    return resolve_filter(env, decl, point, kind, out, diag);
  }

  std::vector<ContextVar> context_vars(const ResolvedProbe &probe) const override {
    // checked against SystemTap 4.8: $syscall and $arg1..$arg6 at entry,
    // $syscall and $return at the return ($arg7: "invalid syscall
    // argument number (1-6)", which -L shows as its absence)
    if (probe.c_fields.find("STP_PROC_SYSCALL,") != std::string::npos) {
      std::vector<ContextVar> v = {{"$syscall", ast::Type::Long, "stp_psys_nr(c)"}};
      for (int n = 1; n <= 6; ++n)
        v.push_back({"$arg" + std::to_string(n), ast::Type::Long,
                     "stp_psys_arg(c, " + std::to_string(n) + ")"});
      return v;
    }
    if (probe.c_fields.find("STP_PROC_SYSCALL_RETURN,") != std::string::npos)
      return {{"$syscall", ast::Type::Long, "stp_psys_nr(c)"},
              {"$return", ast::Type::Long, "stp_psys_return(c)"}};
    return {};
  }

  void emit(codegen::ModuleWriter &w,
            const std::vector<const ResolvedProbe *> &probes) const override {
    w.emit_probe_table("PROC", "struct stp_proc_probe", probes);
  }

private:
  // The process("PATH") or process(PID) filter of the point, then the
  // probe of `kind`.
  bool resolve_filter(const ResolveEnv &env, ast::ProbeDecl &decl, ast::ProbePoint &point,
                      const std::string &kind, std::vector<ResolvedProbe> &out,
                      Diagnostics &diag) const {
    const auto &cs = point.components;
    std::string path = "NULL";
    int64_t pid = 0;
    ast::ProbePoint *p = &point;
    if (const ast::StringLit *s = string_arg(cs[0])) {
      const Sysroot *sysroot = env.user && env.user->sysroot ? env.user->sysroot() : nullptr;
      if (sysroot && has_path_wildcard(s->value)) {
        // one probe per program that matches now; none: the pattern as
        // written, which SystemTap 4.8 accepts too (and never matches)
        bool any = false;
        for (const Sysroot::File &f : glob_target_files(*sysroot, s->value)) {
          std::string err;
          if (!symtab::ElfImage::open_file(f.host_path, err))
            continue;
          push(decl, *with_string_arg(point, 0, f.target_path), kind,
               codegen::c_string_literal(f.target_path), 0, out);
          any = true;
        }
        if (any)
          return true;
      }
      auto f = sysroot ? sysroot->resolve(s->value) : std::nullopt;
      if (f) {
        path = codegen::c_string_literal(f->target_path);
        p = with_string_arg(point, 0, f->target_path);
      } else if (!s->value.empty() && s->value[0] == '/') {
        // not there yet: watched for from the start, armed when a process
        // execs it (SystemTap 4.8 accepts any path here)
        path = codegen::c_string_literal(s->value);
      } else {
        diag.error(s->loc, "no such program: '" + s->value + "'");
        return false;
      }
    } else if (const ast::NumberLit *n = number_arg(cs[0])) {
      if (n->value <= 0) {
        diag.error(n->loc, "process(PID) needs a positive process id");
        return false;
      }
      pid = n->value;
    }
    push(decl, *p, kind, path, pid, out);
    return true;
  }

  void push(ast::ProbeDecl &decl, ast::ProbePoint &point, const std::string &kind,
            const std::string &path, int64_t pid, std::vector<ResolvedProbe> &out) const {
    ResolvedProbe r = make_resolved(decl, point, this);
    r.c_fields = ".kind = " + kind + ", .path = " + path + ", .pid = " + std::to_string(pid);
    out.push_back(std::move(r));
  }
};

} // namespace

const ProbeFamily &process_events_family() {
  static const ProcessEventsFamily family;
  return family;
}

} // namespace stap::probes
