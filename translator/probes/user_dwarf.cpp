#include "probes/user_dwarf.h"

#include "codegen/emitter.h"
#include "dwarf/functions.h"
#include "dwarf/scope.h"
#include "dwarf/type_reader.h"
#include "dwarf/user_debuginfo.h"
#include "symtab/elf_image.h"

#include <cstring>
#include <dwarf.h>

namespace stap::probes {
namespace {

std::string hex(uint64_t v) {
  char buf[32];
  snprintf(buf, sizeof buf, "0x%llxUL", static_cast<unsigned long long>(v));
  return buf;
}

// Was `fn`'s compilation unit optimized (-O1 and up, as its producer string
// records the switches)? Then GCC's location lists describe the variables
// at every instruction, the entry included, and a probe goes on the entry
// itself, where the arguments are also still in their ABI places
// (`long_arg(1)`); unoptimized code keeps them right only after the
// prologue has stored them. SystemTap 4.8 decides the same way.
bool optimized(dwarf::DebugFile &file, const dwarf::FunctionInfo &fn) {
  Dwarf_Die die, cu;
  if (!dwarf::function_die(file, fn, die) || !dwarf_diecu(&die, &cu, nullptr, nullptr))
    return false;
  Dwarf_Attribute a;
  const char *producer = dwarf_formstring(dwarf_attr(&cu, DW_AT_producer, &a));
  if (!producer)
    return false;
  bool opt = false;
  for (const char *p = producer; (p = strstr(p, " -O")); p += 3)
    opt = p[3] != '0'; // the last -O wins, as on a command line
  return opt;
}

std::string spelled(const dwarf::FunctionInfo &fn, int line) {
  return fn.name + "@" + fn.decl_file + ":" + std::to_string(line);
}

class Finder {
public:
  Finder(const ResolveEnv &env, dwarf::DebugFile &file, bool compat32, const UserDwarfRequest &req,
         std::vector<UserPoint> &out)
      : env_(env), file_(file), compat32_(compat32), req_(req), out_(out),
        arch_(compat32 && env.arch.compat ? *env.arch.compat : env.arch) {}

  void run(const dwarf::FunctionPattern &pat) {
    auto fns = dwarf::find_functions(file_, pat, !req_.inlined, req_.inlined);
    for (const dwarf::FunctionInfo &fn : fns) {
      if (fn.decl_file.empty() || (!fn.inlined && !file_.symbol_at(fn.entry)))
        continue;
      if (!req_.statement && !dwarf::declared_on(pat, fn.decl_line))
        continue;
      if (req_.statement)
        lines(fn, pat);
      else if (req_.label)
        for (const auto &l : dwarf::find_labels(file_, fn, *req_.label))
          add(fn, l.addr, spelled(fn, fn.decl_line), l.name);
      else if (req_.is_return || fn.inlined || optimized(file_, fn))
        add(fn, fn.entry, spelled(fn, fn.decl_line));
      else
        add(fn, fn.probe, spelled(fn, fn.decl_line));
    }
  }

private:
  void lines(const dwarf::FunctionInfo &fn, const dwarf::FunctionPattern &pat) {
    if (pat.lines == dwarf::FunctionPattern::Lines::None) { // statement("f"): where f begins
      add(fn, fn.entry, spelled(fn, fn.decl_line));
      return;
    }
    auto [first, last] = dwarf::statement_lines(pat, fn.decl_line);
    for (const auto &l : dwarf::source_lines(file_, fn, first, last, req_.nearest))
      add(fn, l.addr, spelled(fn, l.line));
  }

  void add(const dwarf::FunctionInfo &fn, Dwarf_Addr addr, const std::string &spelling,
           const std::string &label = "") {
    UserPoint p;
    p.function = fn.name;
    p.spelling = spelling;
    p.label = label;
    p.addr = addr;
    if (req_.want_scope)
      p.scope = scope(fn, addr);
    out_.push_back(std::move(p));
  }

public:
  std::shared_ptr<const debuginfo::TargetScope> scope(const dwarf::FunctionInfo &fn,
                                                      Dwarf_Addr addr) {
    dwarf::ScopeOptions opts{arch_};
    opts.user = true;
    opts.with_return = req_.is_return;
    opts.cu_globals = true;
    // Static data moves with the object: its link-time address plus the
    // load bias of this hit (runtime/probes/uprobes.c).
    opts.address = [](uint64_t a, std::string &) -> std::optional<std::string> {
      return "(" + hex(a) + " + stp_uprobe_bias(c))";
    };
    std::shared_ptr<debuginfo::TargetScope> s = dwarf::scope_at(file_, fn, addr, opts);
    s->user_object = req_.object;
    if (compat32_)
      narrow(*s);
    return s;
  }

  // A 32-bit task on a 64-bit kernel: its registers are read from the
  // 64-bit pt_regs, whose upper halves the task does not own, and its
  // addresses are 32 bits wide.
  void narrow(debuginfo::TargetScope &s) const {
    const debuginfo::TypeTable &tt = *s.types;
    auto fix = [&](debuginfo::TargetVar &v) {
      using K = debuginfo::VarLocation::Kind;
      if (v.loc.kind == K::Address)
        v.loc.c_expr = "((unsigned long)(u32)(" + v.loc.c_expr + "))";
      else if (v.loc.kind == K::Value && tt[tt.strip(v.type)].size <= 4)
        v.loc.c_expr = "((unsigned long)(u32)(" + v.loc.c_expr + "))";
    };
    for (debuginfo::TargetVar &v : s.vars)
      fix(v);
    if (s.return_value)
      fix(*s.return_value);
  }

  const ResolveEnv &env_;
  dwarf::DebugFile &file_;
  bool compat32_;
  const UserDwarfRequest &req_;
  std::vector<UserPoint> &out_;
  const arch::Arch &arch_;
};

} // namespace

dwarf::DebugFile *user_dwarf(UserTarget &user, const std::string &target_path,
                             const std::string &host_path, std::string &why) {
  if (!user.debuginfo) {
    UserTarget *u = &user;
    user.debuginfo = std::make_shared<dwarf::UserDebuginfo>([u](const std::string &p) {
      const Sysroot *s = u->sysroot ? u->sysroot() : nullptr;
      return s ? s->host_path(p) : std::string();
    });
  }
  return user.debuginfo->object(target_path, host_path, why);
}

bool find_user_points(const ResolveEnv &env, dwarf::DebugFile &file, bool compat32,
                      const UserDwarfRequest &req, std::vector<UserPoint> &out,
                      Diagnostics &diag) {
  std::string err;
  auto pat = dwarf::parse_function_pattern(req.pattern, err);
  if (!pat) {
    diag.error(req.loc, err);
    return false;
  }
  Finder(env, file, compat32, req, out).run(*pat);
  return true;
}

void add_symbol_scopes(const ResolveEnv &env, dwarf::DebugFile &file, bool compat32,
                       const UserDwarfRequest &req, std::vector<UserPoint> &points) {
  std::vector<UserPoint> unused;
  Finder finder(env, file, compat32, req, unused);
  for (UserPoint &p : points) {
    Dwarf_Addr bias = 0;
    Dwarf_Die *cu = dwfl_module_addrdie(file.module(), p.addr + file.bias(), &bias);
    Dwarf_Die *scopes = nullptr;
    int n = cu ? dwarf_getscopes(cu, p.addr, &scopes) : 0;
    for (int i = 0; i < n; ++i) {
      Dwarf_Addr low = 0;
      if (dwarf_tag(&scopes[i]) != DW_TAG_subprogram || dwarf_lowpc(&scopes[i], &low) != 0 ||
          low != p.addr || !dwarf_diename(&scopes[i]))
        continue;
      dwarf::FunctionInfo fn;
      fn.name = dwarf_diename(&scopes[i]);
      fn.die = dwarf_dieoffset(&scopes[i]);
      fn.entry = fn.probe = low;
      p.scope = finder.scope(fn, p.addr);
      break;
    }
    free(scopes);
    if (!p.scope)
      p.scope = no_dwarf_scope(req.object, "no DWARF describes the function at '" +
                                               p.function + "'");
  }
}

std::optional<UserObjectDwarf> user_object_dwarf(UserTarget &user, const std::string &path,
                                                 std::string &why) {
  const Sysroot *sysroot = user.sysroot ? user.sysroot() : nullptr;
  auto f = sysroot ? sysroot->resolve(path) : std::nullopt;
  if (!f) {
    why = "no such program or library: '" + path + "'";
    return std::nullopt;
  }
  auto elf = symtab::ElfImage::open_file(f->host_path, why);
  if (!elf) {
    why = "cannot read '" + f->target_path + "': " + why;
    return std::nullopt;
  }
  UserObjectDwarf obj;
  obj.file = user_dwarf(user, f->target_path, f->host_path, why);
  if (!obj.file)
    return std::nullopt;
  obj.target_path = f->target_path;
  obj.compat32 = !elf->is_64() && user.arch == "x86_64";
  obj.link_base = elf->load_base();
  return obj;
}

std::shared_ptr<const debuginfo::TypeTable> user_object_types(UserTarget &user,
                                                              const UserObjectDwarf &obj) {
  if (user.all_types_read.insert(obj.target_path).second)
    return dwarf::read_all_types(*obj.file);
  return obj.file->types().table();
}

std::string user_static_address(const UserObjectDwarf &obj, uint64_t addr) {
  std::string a = "(" + hex(addr) + " + stp_uobject_bias(c, " +
                  codegen::c_string_literal(obj.target_path) + ", " + hex(obj.link_base) + "))";
  return obj.compat32 ? "((unsigned long)(u32)" + a + ")" : a;
}

std::shared_ptr<const debuginfo::TargetScope> no_dwarf_scope(const std::string &object,
                                                             const std::string &why) {
  auto s = std::make_shared<debuginfo::TargetScope>();
  s->source = "ELF symbols";
  s->user_object = object;
  s->missing_reason = why;
  return s;
}

} // namespace stap::probes
