// User-space probes on instructions of programs and libraries, placed with
// the kernel's inode uprobes (runtime/probes/uprobes.c):
//   process("PATH").function("F")[.call|.return]
//   process("PATH").library("LIB").function("F")[.call|.return]
//   process("PATH").mark("M"), process("PATH").provider("P").mark("M")
//   process("PATH")[.library("LIB")].plt("F")[.return], .plt (PLT entries)
// (process events and system calls: process_events.cpp).
// Functions come from the object's ELF symbols (.symtab, else .dynsym):
// entry at the symbol's address, no DWARF needed; `F` may hold wildcards.
// Markers come from its .note.stapsdt notes (probes/sdt_notes.h). The
// process events (process.begin, .end, .thread.*) are process_events.cpp's.
// docs/probes.md, "User-space probes".
#include "codegen/emitter.h"
#include "codegen/module_writer.h"
#include "driver/user_objects.h"
#include "lang/glob.h"
#include "probes/family.h"
#include "probes/function_scope.h"
#include "probes/path_glob.h"
#include "probes/program_path.h"
#include "probes/plt_entries.h"
#include "probes/sdt_notes.h"
#include "probes/user_dwarf.h"
#include "probes/user_target.h"
#include "symtab/elf_image.h"
#include "symtab/symbol_index.h"

#include <elf.h>
#include <map>
#include <memory>
#include <set>
#include <signal.h>
#include <sstream>

namespace stap::probes {

const ProbeFamily &process_events_family();

namespace {

// 0x1030UL, a C unsigned long
std::string hex(uint64_t v) { return hex_addr(v) + "UL"; }

// An object probes go into, opened.
struct Object {
  Sysroot::File file;
  std::unique_ptr<symtab::ElfImage> elf;
};

// The file offset of link-time address `vaddr`, if a PT_LOAD maps it.
std::optional<uint64_t> file_offset(const symtab::ElfImage &elf, uint64_t vaddr) {
  for (const auto &s : elf.loads())
    if (vaddr >= s.vaddr && vaddr < s.vaddr + s.filesz)
      return vaddr - s.vaddr + s.offset;
  return std::nullopt;
}

// The fields of struct stp_sdt_arg (runtime/stp_runtime.h) for `a`.
std::string sdt_arg_c(const SdtArg &a) {
  auto reg = [](const std::string &f) {
    return f.empty() ? std::string("-1") : "STP_PT_REG(" + f + ")";
  };
  static const char *const kinds[] = {"STP_SDT_BAD", "STP_SDT_CONST", "STP_SDT_REG",
                                      "STP_SDT_MEM"};
  return "{ .size = " + std::to_string(a.size) + ", .kind = " + kinds[a.kind] +
         ", .base = " + reg(a.base) + ", .index = " + reg(a.index) +
         ", .scale = " + std::to_string(a.scale) + ", .reg_bytes = " +
         std::to_string(a.reg_bytes) + ", .shift = " + std::to_string(a.shift) +
         ", .relocate = " + (a.relocate ? "true" : "false") + ", .disp = " +
         std::to_string(a.disp) + "LL }";
}

class UprobeFamily final : public ProbeFamily {
public:
  std::string_view probe_type(const ResolvedProbe &probe) const override {
    return probe.is_return ? "uretprobe" : "uprobe";
  }
  std::vector<std::string_view> roots() const override { return {"process"}; }

  std::vector<PointShape> shapes() const override {
    std::vector<PointShape> out;
    const std::vector<PointShape> events = {{{"begin", false}},
                                            {{"end", false}},
                                            {{"thread", false}, {"begin", false}},
                                            {{"thread", false}, {"end", false}},
                                            {{"syscall", false}},
                                            {{"syscall", false}, {"return", false}}};
    for (const PointShape &e : events)
      for (bool arg : {false, true}) {
        PointShape s = {{"process", arg}};
        s.insert(s.end(), e.begin(), e.end());
        out.push_back(s);
      }
    std::vector<PointShape> funcs = {
        {{"mark", true}},
        {{"provider", true}, {"mark", true}},
    };
    // functions and statements, each also after library("LIB")
    const std::vector<PointShape> code = {
        {{"function", true}},
        {{"function", true}, {"call", false}},
        {{"function", true}, {"return", false}},
        {{"function", true}, {"inline", false}},
        {{"function", true}, {"label", true}},
        {{"statement", true}},
        {{"statement", true}, {"nearest", false}},
    };
    for (bool lib : {false, true})
      for (const PointShape &c : code) {
        PointShape f;
        if (lib)
          f.push_back({"library", true});
        f.insert(f.end(), c.begin(), c.end());
        funcs.push_back(f);
      }
    // .plt is .plt("*"); each also after library("LIB")
    for (bool arg : {true, false})
      for (bool ret : {false, true})
        for (bool lib : {false, true}) {
          PointShape f;
          if (lib)
            f.push_back({"library", true});
          f.push_back({"plt", arg});
          if (ret)
            f.push_back({"return", false});
          funcs.push_back(f);
        }
    for (const PointShape &f : funcs) {
      PointShape s = {{"process", true}};
      s.insert(s.end(), f.begin(), f.end());
      out.push_back(s);
    }
    return out;
  }

  bool resolve(const ResolveEnv &env, ast::ProbeDecl &decl, ast::ProbePoint &point,
               std::vector<ResolvedProbe> &out, Diagnostics &diag) const override {
    return resolve_for(env, decl, point, 0, out, diag);
  }

private:
  // resolve(), for process `pid` only (process(PID): stp_uprobe.pid) or,
  // when 0, for any process.
  bool resolve_for(const ResolveEnv &env, ast::ProbeDecl &decl, ast::ProbePoint &point,
                   int64_t pid, std::vector<ResolvedProbe> &out, Diagnostics &diag) const {
    const auto &cs = point.components;
    if (cs.size() < 2) {
      diag.error(cs[0].loc, "expected process(...).function, .mark, .begin, .end or .thread "
                            "in '" + probe_point_string(point) + "'");
      return false;
    }
    const std::string &what = cs[1].functor;
    if (what == "begin" || what == "end" || what == "thread" || what == "syscall")
      return process_events_family().resolve(env, decl, point, out, diag);
    if (what == "statement" && cs.back().functor == "absolute" && !cs.back().arg) {
      // checked against SystemTap 4.8 (inode uprobes): process(PID)'s is
      // "not available", process("PATH") has no such suffix
      diag.error(cs.back().loc, number_arg(cs[0])
                                    ? "absolute process probes not available"
                                    : "invalid suffix for probe: absolute");
      return false;
    }
    // statement("f@file:line") is DWARF's (resolve_functions)
    bool dwarf_statement = what == "statement" && string_arg(cs[1]);
    if (what != "function" && what != "library" && what != "mark" && what != "provider" &&
        what != "plt" && !dwarf_statement) {
      diag.error(cs[1].loc, "unexpected '" + what + "' in '" + probe_point_string(point) + "'" +
                                (what == "statement" ? ": not supported yet"
                                     : ""));
      return false;
    }
    if (!env.user) {
      diag.error(cs[0].loc, "user-space probes are not available here");
      return false;
    }
    if (!cs[0].arg)
      return resolve_unspecified(env, decl, point, out, diag);
    if (const ast::NumberLit *pid_arg = number_arg(cs[0]))
      return resolve_pid(env, decl, point, pid_arg, out, diag);
    const ast::StringLit *path = string_arg(cs[0]);
    if (!path) {
      diag.error(cs[0].loc, "process(...) needs a path string or a process id");
      return false;
    }
    if (has_path_wildcard(path->value))
      return resolve_path_glob(env, decl, point, *path, out, diag);
    UserTarget &user = *env.user;
    std::optional<Object> program = open_object(user, path->value, cs[0].arg->loc, true, diag);
    if (!program)
      return false;
    if (what == "mark" || what == "provider")
      return resolve_marks(user, decl, point, *program, pid, out, diag);
    size_t i = 1;
    std::optional<Object> lib;
    if (what == "library") {
      const ast::StringLit *l = string_arg(cs[1]);
      if (!l) {
        diag.error(cs[1].loc, "library(...) needs a library name or path string");
        return false;
      }
      lib = find_library(user, *program, l->value, l->loc, point.optional, diag);
      if (!lib)
        return point.optional;
      ++i;
    }
    if (i < cs.size() && cs[i].functor == "plt")
      return resolve_plt(user, decl, point, i, lib ? *lib : *program, lib.has_value(), pid, out,
                         diag);
    return resolve_functions(env, user, decl, point, i, lib ? *lib : *program, lib.has_value(),
                             pid, out, diag);
  }

public:
  std::vector<ContextVar> context_vars(const ResolvedProbe &probe) const override {
    auto it = marks_.find(probe.c_fields);
    if (it != marks_.end()) {
      std::vector<ContextVar> v;
      for (unsigned n = 1; n <= it->second; ++n)
        v.push_back({"$arg" + std::to_string(n), ast::Type::Long,
                     "stp_sdt_arg(c, " + std::to_string(n) + ")"});
      v.push_back({"$$name", ast::Type::String, "((char *)c->uprobe->mark)"});
      v.push_back({"$$provider", ast::Type::String, "((char *)c->uprobe->provider)"});
      v.push_back({"$$parms", ast::Type::String, "stp_sdt_parms(c, c->sdt_parms)"});
      return v;
    }
    if (plts_.count(probe.c_fields))
      return {{"$$name", ast::Type::String, "((char *)c->uprobe->mark)"}};
    if (probe.is_return)
      return {{"$return", ast::Type::Long, "stp_uprobe_return(c)"}};
    return {};
  }

  // A return probe's @entry part runs from the same uprobe's entry
  // handler, its values kept per call (runtime/probes/uprobe_entry.c).
  bool has_entry_values() const override { return true; }
  // A return probe's $param is its value at entry, as in SystemTap.
  bool snapshots_return_vars() const override { return true; }

  void emit(codegen::ModuleWriter &w,
            const std::vector<const ResolvedProbe *> &probes) const override {
    w.emit_probe_table("UPROBE", "struct stp_uprobe", probes);
  }

private:
  // process.function(...) (no path, no PID): the -c command's program or
  // the -x process, as SystemTap 4.8 fills them in.
  bool resolve_unspecified(const ResolveEnv &env, ast::ProbeDecl &decl, ast::ProbePoint &point,
                           std::vector<ResolvedProbe> &out, Diagnostics &diag) const {
    const UserTarget &user = *env.user;
    const auto &cs = point.components;
    if (!user.target_command.empty()) {
      std::string program = command_program(user.target_command);
      return resolve(env, decl, *with_string_arg(point, 0, program), out, diag);
    }
    if (user.target_pid) {
      auto p = std::make_unique<ast::ProbePoint>(point);
      auto n = std::make_unique<ast::NumberLit>();
      n->loc = cs[0].loc;
      n->value = user.target_pid;
      p->components[0].arg = n.get();
      numbers_.push_back(std::move(n));
      return resolve(env, decl, *keep_point(std::move(p)), out, diag);
    }
    diag.error(cs[0].loc, "unspecified process probe is invalid without a -c COMMAND or -x PID");
    return false;
  }

  // process(PID).function(...): the program that process runs now
  // (/proc/PID/exe where the translator runs, as SystemTap 4.8 reads it),
  // its probes filtered to that process. pp() names the program.
  bool resolve_pid(const ResolveEnv &env, ast::ProbeDecl &decl, ast::ProbePoint &point,
                   const ast::NumberLit *pid, std::vector<ResolvedProbe> &out,
                   Diagnostics &diag) const {
    const std::string exe = "/proc/" + std::to_string(pid->value) + "/exe";
    const Sysroot *sysroot = env.user->sysroot ? env.user->sysroot() : nullptr;
    std::optional<Sysroot::File> f;
    if (pid->value > 0 && sysroot)
      f = sysroot->resolve(exe);
    if (!f) {
      diag.error(pid->loc, "cannot probe pid " + std::to_string(pid->value) + ": " +
                               (pid->value > 0 && kill(static_cast<pid_t>(pid->value), 0) == 0
                                    ? "cannot read " + exe
                                    : std::string("No such process")));
      return false;
    }
    return resolve_for(env, decl, *with_string_arg(point, 0, f->target_path), pid->value, out,
                       diag);
  }

  // process("/usr/bin/*")...: every program or library whose path matches
  // (path_glob.h) and that has what the rest of the point names; the
  // others are skipped quietly, as SystemTap 4.8 skips them.
  bool resolve_path_glob(const ResolveEnv &env, ast::ProbeDecl &decl, ast::ProbePoint &point,
                         const ast::StringLit &pattern, std::vector<ResolvedProbe> &out,
                         Diagnostics &diag) const {
    const Sysroot *sysroot = env.user->sysroot ? env.user->sysroot() : nullptr;
    if (!sysroot) {
      diag.error(pattern.loc, "cannot read the target's files for '" + pattern.value + "'");
      return false;
    }
    bool any = false;
    for (const Sysroot::File &f : glob_target_files(*sysroot, pattern.value)) {
      std::string err;
      auto elf = symtab::ElfImage::open_file(f.host_path, err);
      if (!elf)
        continue; // not ELF: scripts, data
      std::ostringstream quiet;
      Diagnostics quiet_diag(quiet);
      std::vector<ResolvedProbe> found;
      if (resolve(env, decl, *with_string_arg(point, 0, f.target_path), found, quiet_diag) &&
          !quiet_diag.errors() && !found.empty()) {
        for (ResolvedProbe &r : found)
          out.push_back(std::move(r));
        any = true;
      }
    }
    if (!any && !point.optional)
      diag.error(pattern.loc, "no program or library matching '" + pattern.value +
                                  "' has '" + probe_point_string(point) + "'");
    return any || point.optional;
  }

  // The program or library `name` names, as the target would find it: a
  // path with a '/' (relative to the working directory), else the first
  // match in the PATH directories, as a shell looks it up.
  std::optional<Object> open_object(UserTarget &user, const std::string &name, SourceLoc loc,
                                    bool search_path, Diagnostics &diag) const {
    const Sysroot *sysroot = user.sysroot ? user.sysroot() : nullptr;
    if (!sysroot) {
      diag.error(loc, "cannot read the target's files for '" + name + "'");
      return std::nullopt;
    }
    std::optional<Sysroot::File> f = find_program(*sysroot, name, search_path);
    if (!f) {
      diag.error(loc, "no such program or library: '" + name + "'");
      return std::nullopt;
    }
    std::string err;
    auto elf = symtab::ElfImage::open_file(f->host_path, err);
    if (!elf) {
      diag.error(loc, "cannot read '" + f->target_path + "': " + err);
      return std::nullopt;
    }
    bool ok_machine = elf->machine() == EM_386 ||
                      (elf->machine() == EM_X86_64 && user.arch == "x86_64");
    if (!ok_machine) {
      diag.error(loc, "'" + f->target_path + "' cannot run on the " + user.arch +
                          " target");
      return std::nullopt;
    }
    if (elf->type() != ET_EXEC && elf->type() != ET_DYN) {
      diag.error(loc, "'" + f->target_path + "' is not a program or shared library");
      return std::nullopt;
    }
    return Object{*f, std::move(elf)};
  }

  // library("LIB"): a path, or a pattern matched against the libraries the
  // program needs (found as its loader finds them, driver/ldd.h).
  std::optional<Object> find_library(UserTarget &user, const Object &program,
                                     const std::string &lib, SourceLoc loc, bool optional,
                                     Diagnostics &diag) const {
    if (lib.find('/') != std::string::npos)
      return open_object(user, lib, loc, false, diag);
    UserObjectRequest req{{program.file.target_path}, true, "", user.arch};
    std::ostringstream quiet;
    Diagnostics ldd_diag(quiet);
    const Sysroot *sysroot = user.sysroot();
    std::vector<UserObject> objs = resolve_user_objects(req, *sysroot, ldd_diag);
    for (const UserObject &o : objs) {
      if (o.target_path == program.file.target_path)
        continue;
      std::string base = o.target_path.substr(o.target_path.rfind('/') + 1);
      if (lang::glob_match(lib, base) ||
          lang::glob_match(lib, o.target_path))
        return open_object(user, o.target_path, loc, false, diag);
    }
    if (!optional)
      diag.error(loc, "no library that '" + program.file.target_path + "' needs matches '" +
                          lib + "'");
    return std::nullopt;
  }

  // function("PATTERN")[.call|.return|.inline|.label("L")] and
  // statement("PATTERN")[.nearest] from component `i` on: through the
  // object's DWARF when it has some (probes/user_dwarf.h), else functions
  // by ELF symbol (entry at the symbol, no target variables).
  bool resolve_functions(const ResolveEnv &env, UserTarget &user, ast::ProbeDecl &decl,
                         ast::ProbePoint &point, size_t i, const Object &obj, bool in_library,
                         int64_t pid, std::vector<ResolvedProbe> &out, Diagnostics &diag) const {
    const auto &cs = point.components;
    if (i >= cs.size() || (cs[i].functor != "function" && cs[i].functor != "statement") ||
        !string_arg(cs[i])) {
      diag.error(i < cs.size() ? cs[i].loc : cs.back().loc,
                 "expected function(\"NAME\") in '" + probe_point_string(point) + "'");
      return false;
    }
    const size_t function_index = i;
    UserDwarfRequest req;
    req.statement = cs[i].functor == "statement";
    req.pattern = string_arg(cs[i])->value;
    req.loc = cs[i].arg->loc;
    for (++i; i < cs.size(); ++i) {
      const std::string &f = cs[i].functor;
      if (!req.statement && (f == "call" || f == "return") && !req.inlined) {
        req.is_return = f == "return";
      } else if (!req.statement && f == "inline" && !req.is_return) {
        req.inlined = true;
      } else if (!req.statement && f == "label" && string_arg(cs[i])) {
        req.label = string_arg(cs[i])->value;
      } else if (req.statement && f == "nearest") {
        req.nearest = true;
      } else {
        diag.error(cs[i].loc, "unexpected '" + f + "' in '" + probe_point_string(point) + "'");
        return false;
      }
    }
    req.want_scope = env.list_vars || uses_target_vars(decl) || uses_casts(decl);
    req.object = obj.file.target_path;
    std::string why;
    dwarf::DebugFile *dw = user_dwarf(user, obj.file.target_path, obj.file.host_path, why);
    std::vector<UserPoint> points;
    if (dw) {
      bool compat32 = obj.elf->machine() == EM_386 && user.arch == "x86_64";
      if (!find_user_points(env, *dw, compat32, req, points, diag))
        return false;
      if (points.empty() && !req.needs_dwarf()) {
        points = symbol_points(obj, req.pattern);
        if (req.want_scope)
          add_symbol_scopes(env, *dw, compat32, req, points);
      }
    } else if (req.needs_dwarf()) {
      if (!point.optional)
        diag.error(req.loc, "cannot resolve '" + req.pattern + "': " + why);
      return point.optional;
    } else {
      points = symbol_points(obj, req.pattern);
      if (req.want_scope)
        for (UserPoint &p : points)
          p.scope = no_dwarf_scope(req.object, why);
    }
    bool any = false;
    for (const UserPoint &up : points) {
      auto off = file_offset(*obj.elf, up.addr);
      if (!off)
        continue;
      ast::ProbePoint *p = found_point(user, point, obj, in_library);
      p = with_string_arg(*p, function_index, up.spelling);
      for (size_t k = function_index + 1; !up.label.empty() && k < p->components.size(); ++k)
        if (p->components[k].functor == "label")
          p = with_string_arg(*p, k, up.label);
      ResolvedProbe r = make_resolved(decl, *p, this);
      r.function = up.function;
      r.is_return = req.is_return;
      r.scope = up.scope;
      r.c_fields = common_fields(obj, *off, up.addr, point.optional, pid) +
                   ", .is_return = " + (req.is_return ? "true" : "false");
      out.push_back(std::move(r));
      any = true;
    }
    if (!any) {
      if (!point.optional)
        diag.error(req.loc, "no " + std::string(req.statement ? "statement" : "function") +
                                " of '" + obj.file.target_path + "' matches '" + req.pattern +
                                "'" + (req.label ? " with label '" + *req.label + "'" : ""));
      return point.optional;
    }
    note_probed(user, obj);
    return true;
  }

  // Functions by ELF symbol: every name for an exact match, one name per
  // address for a wildcard (aliases would probe one instruction twice).
  static std::vector<UserPoint> symbol_points(const Object &obj, const std::string &pattern) {
    std::vector<UserPoint> out;
    if (lang::has_glob(pattern)) {
      for (const symtab::IndexedSymbol &s : symtab::index_symbols(obj.elf->function_symbols()))
        if (lang::glob_match(pattern, s.name))
          out.push_back(UserPoint{s.name, s.name, "", s.start, nullptr});
    } else {
      for (const symtab::ElfSymbol &s : obj.elf->function_symbols()) {
        std::string name = s.name.substr(0, s.name.find('@'));
        if (name == pattern) {
          out.push_back(UserPoint{pattern, pattern, "", s.value, nullptr});
          break;
        }
      }
    }
    return out;
  }

  // .plt("NAME") / .plt: the PLT entries of the object whose symbol
  // matches (probes/plt_entries.h); pp() is the entry's
  // process("PATH").statement(ADDR), as SystemTap 4.8 names it, $$name the
  // symbol. .return: a uretprobe at the entry (the imported function's
  // return).
  bool resolve_plt(UserTarget &user, ast::ProbeDecl &decl, ast::ProbePoint &point, size_t i,
                   const Object &obj, bool in_library, int64_t pid,
                   std::vector<ResolvedProbe> &out, Diagnostics &diag) const {
    const auto &cs = point.components;
    const ast::StringLit *arg = string_arg(cs[i]);
    if (cs[i].arg && !arg) {
      diag.error(cs[i].loc, "plt(...) needs a function name string");
      return false;
    }
    const std::string pattern = arg ? arg->value : "*";
    const SourceLoc loc = arg ? arg->loc : cs[i].loc;
    bool is_return = i + 1 < cs.size() && cs[i + 1].functor == "return" && !cs[i + 1].arg;
    if (i + 1 + is_return < cs.size()) {
      const auto &bad = cs[i + 1 + is_return];
      diag.error(bad.loc, "unexpected '" + bad.functor + "' in '" + probe_point_string(point) +
                              "'");
      return false;
    }
    bool any = false;
    for (const PltEntry &e : plt_entries(*obj.elf)) {
      if (!lang::glob_match(pattern, e.name))
        continue;
      auto off = file_offset(*obj.elf, e.addr);
      if (!off)
        continue;
      ast::ProbePoint *pp = found_point(user, point, obj, in_library);
      ResolvedProbe r = make_resolved(decl, *pp, this);
      r.pp = component_string(pp->components[0]) +
             (in_library ? "." + component_string(pp->components[1]) : "") + ".statement(" +
             hex_addr(e.addr) + ")" + (is_return ? ".return" : "");
      r.pn = r.pp;
      r.function = e.name;
      r.is_return = is_return;
      r.c_fields = common_fields(obj, *off, e.addr, point.optional, pid) +
                   ", .is_return = " + (is_return ? "true" : "false") +
                   ", .mark = " + codegen::c_string_literal(e.name);
      out.push_back(std::move(r));
      plts_.insert(out.back().c_fields);
      any = true;
    }
    if (!any && !point.optional)
      diag.error(loc, "no PLT entry of '" + obj.file.target_path + "' matches '" + pattern +
                          "'");
    if (any)
      note_probed(user, obj);
    return any || point.optional;
  }

  bool resolve_marks(UserTarget &user, ast::ProbeDecl &decl, ast::ProbePoint &point,
                     const Object &obj, int64_t pid, std::vector<ResolvedProbe> &out,
                     Diagnostics &diag) const {
    const auto &cs = point.components;
    size_t i = 1;
    std::string provider = "*";
    if (cs[i].functor == "provider") {
      const ast::StringLit *p = string_arg(cs[i]);
      if (!p) {
        diag.error(cs[i].loc, "provider(...) needs a provider name string");
        return false;
      }
      provider = p->value;
      ++i;
    }
    const ast::StringLit *m = i < cs.size() && cs[i].functor == "mark" ? string_arg(cs[i]) : nullptr;
    if (!m) {
      diag.error(i < cs.size() ? cs[i].loc : cs.back().loc,
                 "expected mark(\"NAME\") in '" + probe_point_string(point) + "'");
      return false;
    }
    if (i + 1 < cs.size()) {
      diag.error(cs[i + 1].loc, "unexpected '" + cs[i + 1].functor + "' in '" +
                                    probe_point_string(point) + "'");
      return false;
    }
    // SystemTap reads '-' in marker names as '_' (sys/sdt.h names them so).
    auto norm = [](std::string s) {
      for (char &ch : s)
        if (ch == '-')
          ch = '_';
      return s;
    };
    bool any = false;
    for (const SdtMarker &mk : sdt_markers(*obj.elf)) {
      if (!lang::glob_match(norm(provider), mk.provider) ||
          !lang::glob_match(norm(m->value), mk.name))
        continue;
      auto off = file_offset(*obj.elf, mk.pc);
      std::optional<uint64_t> sem;
      if (mk.semaphore && !(sem = file_offset(*obj.elf, mk.semaphore))) {
        diag.error(m->loc, "the semaphore of marker '" + mk.name + "' is in no loaded segment");
        return false;
      }
      if (!off)
        continue;
      // pp(): process("PATH").provider("P").mark("M"), as SystemTap names it
      auto p = std::make_unique<ast::ProbePoint>(point);
      p->components.clear();
      p->components.push_back(point.components[0]);
      ast::ProbePointComponent prov = point.components[0];
      prov.functor = "provider";
      p->components.push_back(prov);
      ast::ProbePointComponent mark = point.components[i];
      p->components.push_back(mark);
      ast::ProbePoint *pp = keep_point(std::move(p));
      pp = with_string_arg(*pp, 0, obj.file.target_path);
      pp = with_string_arg(*pp, 1, mk.provider);
      pp = with_string_arg(*pp, 2, mk.name);
      ResolvedProbe r = make_resolved(decl, *pp, this);
      std::string args;
      for (const SdtArg &a : mk.args)
        args += sdt_arg_c(a) + ", ";
      r.c_fields = common_fields(obj, *off, mk.pc, point.optional, pid) + ", .sdt_sem = " +
                   hex(sem.value_or(0)) + ", .mark = " + codegen::c_string_literal(mk.name) +
                   ", .provider = " + codegen::c_string_literal(mk.provider) +
                   ", .nargs = " + std::to_string(mk.args.size());
      if (!mk.args.empty())
        r.c_fields += ", .args = (const struct stp_sdt_arg[]){ " + args + "}";
      out.push_back(std::move(r));
      marks_[out.back().c_fields] = static_cast<unsigned>(mk.args.size());
      any = true;
    }
    if (!any && !point.optional)
      diag.error(m->loc, "no SDT marker of '" + obj.file.target_path + "' matches '" +
                             (provider == "*" ? "" : provider + ":") + m->value + "'");
    if (any)
      note_probed(user, obj);
    return any || point.optional;
  }

  // The stp_uprobe fields every point has; `pid`: process(PID)'s, else 0.
  static std::string common_fields(const Object &obj, uint64_t offset, uint64_t addr,
                                   bool optional, int64_t pid) {
    return ".path = " + codegen::c_string_literal(obj.file.target_path) +
           ", .offset = " + hex(offset) + ", .link_pc = " + hex(addr) +
           ", .optional = " + (optional ? "true" : "false") +
           (pid ? ", .pid = " + std::to_string(pid) : "");
  }

  // `point` as pp() names it: with the paths of the program (and of the
  // library) found, in place of what the script wrote.
  static ast::ProbePoint *found_point(UserTarget &user, const ast::ProbePoint &point,
                                      const Object &obj, bool in_library) {
    ast::ProbePoint *p = with_string_arg(point, 0, program_path(user, point, obj, in_library));
    return in_library ? with_string_arg(*p, 1, obj.file.target_path) : p;
  }

  static std::string program_path(UserTarget &user, const ast::ProbePoint &point,
                                  const Object &obj, bool in_library) {
    if (!in_library)
      return obj.file.target_path;
    const Sysroot *s = user.sysroot();
    auto f = s->resolve(string_arg(point.components[0])->value);
    return f ? f->target_path : string_arg(point.components[0])->value;
  }

  static void note_probed(UserTarget &user, const Object &obj) {
    auto &v = user.probed_objects;
    for (const std::string &p : v)
      if (p == obj.file.target_path)
        return;
    v.push_back(obj.file.target_path);
  }

  // Which resolved probes are markers (by their unique c_fields), and how
  // many arguments each has.
  mutable std::map<std::string, unsigned> marks_;
  // Which are PLT entries ($$name).
  mutable std::set<std::string> plts_;
  // Process ids put into points (resolve_unspecified), kept with them.
  mutable std::vector<std::unique_ptr<ast::NumberLit>> numbers_;
};

} // namespace

const ProbeFamily &uprobe_family() {
  static const UprobeFamily family;
  return family;
}

} // namespace stap::probes
