#include "dwarf/scope.h"

#include "codegen/emitter.h"
#include "dwarf/type_reader.h"

#include <dwarf.h>
#include <functional>
#include <set>

namespace stap::dwarf {
namespace {

using debuginfo::TargetVar;
using debuginfo::VarLocation;

VarLocation unavailable(const std::string &why) {
  VarLocation l;
  l.kind = VarLocation::Unavailable;
  l.c_expr = why;
  return l;
}

// The canonical frame address at `pc`, from the file's CFI, as C.
std::optional<std::string> cfa_at(DebugFile &file, Dwarf_Addr pc, const ScopeOptions &opts,
                                  std::string &why) {
  Dwarf_Addr cfi_bias = 0;
  Dwarf_CFI *cfi = file.cfi(cfi_bias);
  if (!cfi) {
    why = "no call frame information in " + file.path();
    return std::nullopt;
  }
  Dwarf_Frame *frame = nullptr;
  if (dwarf_cfi_addrframe(cfi, pc + file.bias() - cfi_bias, &frame) != 0) {
    why = std::string("no call frame information at this address: ") + dwarf_errmsg(-1);
    return std::nullopt;
  }
  Dwarf_Op *ops = nullptr;
  size_t n = 0;
  std::optional<std::string> out;
  if (dwarf_frame_cfa(frame, &ops, &n) == 0) {
    LocationContext ctx{opts.arch};
    ctx.user = opts.user;
    VarLocation l = compile_location(ops, n, ctx, why);
    if (l.kind != VarLocation::Unavailable)
      out = l.c_expr; // a register's value or a computed address: the CFA itself
  } else {
    why = std::string("no canonical frame address here: ") + dwarf_errmsg(-1);
  }
  free(frame);
  return out;
}

std::optional<std::string> frame_base_at(DebugFile &file, Dwarf_Die *subprogram, Dwarf_Addr pc,
                                         const ScopeOptions &opts, std::string &why) {
  Dwarf_Attribute a;
  Dwarf_Op *ops;
  size_t n;
  if (!subprogram || !dwarf_attr_integrate(subprogram, DW_AT_frame_base, &a) ||
      dwarf_getlocation_addr(&a, pc, &ops, &n, 1) <= 0) {
    why = "no frame base at this address";
    return std::nullopt;
  }
  LocationContext ctx{opts.arch};
  ctx.user = opts.user;
  ctx.cfa = [&](std::string &w) { return cfa_at(file, pc, opts, w); };
  VarLocation l = compile_location(ops, n, ctx, why);
  if (l.kind == VarLocation::Unavailable)
    return std::nullopt;
  return l.c_expr;
}

// The first instruction of `subprogram`: DW_AT_entry_pc, DW_AT_low_pc or
// its first range.
std::optional<Dwarf_Addr> entry_of(Dwarf_Die *subprogram) {
  Dwarf_Addr a;
  if (subprogram && dwarf_entrypc(subprogram, &a) == 0)
    return a;
  Dwarf_Addr base, start, end;
  if (subprogram && dwarf_ranges(subprogram, 0, &base, &start, &end) > 0)
    return start;
  return std::nullopt;
}

// A call site's value for a parameter, when it is a constant: what the
// DW_AT_call_value expression leaves (DW_OP_litN, DW_OP_constN, ...).
std::optional<uint64_t> constant_value(Dwarf_Attribute *a) {
  Dwarf_Op *ops;
  size_t n;
  if (dwarf_getlocation(a, &ops, &n) != 0 || n == 0)
    return std::nullopt;
  std::optional<uint64_t> v;
  for (size_t i = 0; i < n; ++i) {
    uint8_t at = ops[i].atom;
    if (at >= DW_OP_lit0 && at <= DW_OP_lit31 && !v)
      v = at - DW_OP_lit0;
    else if ((at == DW_OP_const1u || at == DW_OP_const2u || at == DW_OP_const4u ||
              at == DW_OP_const8u || at == DW_OP_constu || at == DW_OP_const1s ||
              at == DW_OP_const2s || at == DW_OP_const4s || at == DW_OP_const8s ||
              at == DW_OP_consts) && !v)
      v = ops[i].number;
    else if (at != DW_OP_stack_value || i + 1 != n)
      return std::nullopt;
  }
  return v;
}

// DW_OP_GNU_parameter_ref: a parameter a compiler clone no longer takes
// (GCC's IPA-SRA), whose value only the call sites describe. Those of
// the compilation unit (clones are of static functions) are read: when
// each passes the same constant, that is the value.
std::optional<std::string> parameter_ref(Dwarf_Die *cu, uint64_t cu_offset, std::string &why) {
  Dwarf_Off cu_start = dwarf_dieoffset(cu) - dwarf_cuoffset(cu);
  Dwarf_Off param = cu_start + cu_offset;
  std::optional<uint64_t> value;
  bool other = false;
  size_t sites = 0;
  std::function<void(Dwarf_Die *)> walk = [&](Dwarf_Die *d) {
    Dwarf_Die child;
    if (dwarf_child(d, &child) != 0)
      return;
    do {
      int tag = dwarf_tag(&child);
      if (tag == DW_TAG_call_site_parameter || tag == DW_TAG_GNU_call_site_parameter) {
        Dwarf_Attribute a;
        Dwarf_Die target;
        if ((dwarf_attr(&child, DW_AT_call_parameter, &a) ||
             dwarf_attr(&child, DW_AT_abstract_origin, &a)) &&
            dwarf_formref_die(&a, &target) && dwarf_dieoffset(&target) == param) {
          ++sites;
          std::optional<uint64_t> v;
          if (dwarf_attr(&child, DW_AT_call_value, &a) ||
              dwarf_attr(&child, DW_AT_GNU_call_site_value, &a))
            v = constant_value(&a);
          if (!v || (value && *value != *v))
            other = true;
          else
            value = v;
        }
      } else if (dwarf_haschildren(&child)) {
        walk(&child);
      }
    } while (dwarf_siblingof(&child, &child) == 0);
  };
  walk(cu);
  if (sites == 0) {
    why = "no call site in its compilation unit passes it";
    return std::nullopt;
  }
  if (other || !value) {
    why = "its callers pass values that differ or are not constants";
    return std::nullopt;
  }
  char buf[40];
  snprintf(buf, sizeof buf, "0x%llxUL", static_cast<unsigned long long>(*value));
  return std::string(buf);
}

} // namespace

VarLocation variable_location(DebugFile &file, Dwarf_Die *var, Dwarf_Die *subprogram, Dwarf_Addr pc,
                              const ScopeOptions &opts, std::string &why) {
  Dwarf_Attribute a;
  if (dwarf_attr_integrate(var, DW_AT_const_value, &a)) {
    Dwarf_Sword s;
    Dwarf_Word u;
    VarLocation l;
    l.kind = VarLocation::Value;
    if (dwarf_formsdata(&a, &s) == 0)
      l.c_expr = "(" + std::to_string(s) + "L)";
    else if (dwarf_formudata(&a, &u) == 0)
      l.c_expr = "(" + std::to_string(u) + "UL)";
    else
      return why = "a constant wider than a long", unavailable(why);
    return l;
  }
  if (!dwarf_attr(var, DW_AT_location, &a)) {
    why = "optimized out";
    return unavailable(why);
  }
  Dwarf_Op *ops;
  size_t n;
  int found = dwarf_getlocation_addr(&a, pc, &ops, &n, 1);
  if (found <= 0) {
    why = "not accessible at this address";
    return unavailable(why);
  }
  LocationContext ctx{opts.arch};
  ctx.user = opts.user;
  ctx.address = opts.address;
  auto entry = entry_of(subprogram);
  ctx.at_entry = entry && *entry == pc;
  if (const char *name = dwarf_diename(var))
    ctx.where = codegen::c_string_literal(std::string("'$") + name + "'");
  Dwarf_Die cu;
  if (dwarf_diecu(var, &cu, nullptr, nullptr))
    ctx.parameter_ref = [&cu](uint64_t off, std::string &w) { return parameter_ref(&cu, off, w); };
  ctx.frame_base = [&](std::string &w) { return frame_base_at(file, subprogram, pc, opts, w); };
  ctx.cfa = [&](std::string &w) { return cfa_at(file, pc, opts, w); };
  VarLocation l = compile_location(ops, n, ctx, why);
  if (l.kind == VarLocation::Unavailable)
    l.c_expr = why;
  return l;
}

std::shared_ptr<debuginfo::TargetScope> scope_at(DebugFile &file, const FunctionInfo &fn,
                                                 Dwarf_Addr pc, const ScopeOptions &opts) {
  auto scope = std::make_shared<debuginfo::TargetScope>();
  scope->source = "DWARF";
  TypeReader &types = file.types();
  scope->types = types.table();
  Dwarf_Die fdie, cu;
  if (!function_die(file, fn, fdie) || !dwarf_diecu(&fdie, &cu, nullptr, nullptr)) {
    scope->missing_reason = "no DWARF for " + fn.name + " in " + file.path();
    return scope;
  }
  // The scopes at pc, innermost first, down to fn's own DIE; the
  // subprogram whose frame base applies is the first one at or outside it.
  Dwarf_Die *scopes = nullptr;
  int n = dwarf_getscopes(&cu, pc, &scopes);
  std::vector<Dwarf_Die> inner; // lexical blocks inside fn at pc, innermost first
  Dwarf_Die subprogram = fdie;
  bool have_subprogram = !fn.inlined;
  for (int i = 0, found = -1; i < n; ++i) {
    if (found < 0 && dwarf_dieoffset(&scopes[i]) == fn.die) {
      found = i;
      continue;
    }
    if (found < 0)
      inner.push_back(scopes[i]);
    else if (!have_subprogram && dwarf_tag(&scopes[i]) == DW_TAG_subprogram) {
      subprogram = scopes[i];
      have_subprogram = true;
    }
    if (i + 1 == n && found < 0)
      inner.clear(); // pc is not inside fn: only fn's own variables
  }
  free(scopes);
  std::set<std::string> seen;
  auto add = [&](Dwarf_Die *var, bool parameter, bool global) {
    const char *name = dwarf_diename(var);
    // (not _integrate: a global's definition names its declaration, the
    // header's `extern`, through DW_AT_specification)
    if (!name || dwarf_hasattr(var, DW_AT_declaration) || !seen.insert(name).second)
      return;
    TargetVar v;
    v.name = name;
    v.parameter = parameter;
    v.global = global;
    v.type = types.type_attr(var);
    std::string why;
    v.loc = variable_location(file, var, have_subprogram ? &subprogram : nullptr, pc, opts, why);
    if (v.loc.kind == VarLocation::Unavailable)
      v.loc.c_expr = why;
    scope->vars.push_back(std::move(v));
  };
  auto children = [&](Dwarf_Die *d, int tag, bool parameter, bool global = false) {
    Dwarf_Die child;
    if (dwarf_child(d, &child) == 0)
      do {
        if (dwarf_tag(&child) == tag)
          add(&child, parameter, global);
      } while (dwarf_siblingof(&child, &child) == 0);
  };
  children(&fdie, DW_TAG_formal_parameter, true);
  for (Dwarf_Die &d : inner)
    children(&d, DW_TAG_variable, false);
  children(&fdie, DW_TAG_variable, false);
  if (opts.cu_globals) {
    children(&cu, DW_TAG_variable, false, true);
    // `extern int x;` of a variable another file defines: the object's own
    // symbol, if it has one (a program's copy of a library's variable
    // too), as SystemTap finds it.
    Dwarf_Die child;
    if (opts.address && dwarf_child(&cu, &child) == 0)
      do {
        const char *name = dwarf_diename(&child);
        if (dwarf_tag(&child) != DW_TAG_variable || !name || seen.count(name) ||
            !dwarf_hasattr(&child, DW_AT_declaration))
          continue;
        auto addr = file.symbol_address(name);
        std::string why;
        auto c = addr ? opts.address(*addr, why) : std::nullopt;
        if (!c)
          continue;
        seen.insert(name);
        TargetVar v;
        v.name = name;
        v.global = true;
        v.type = types.type_attr(&child);
        v.loc.kind = VarLocation::Address;
        v.loc.c_expr = *c;
        v.loc.user = opts.user;
        scope->vars.push_back(std::move(v));
      } while (dwarf_siblingof(&child, &child) == 0);
  }
  // Parameters first, in declaration order; locals innermost first.
  if (opts.with_return) {
    debuginfo::TypeId t = types.type_attr(&fdie);
    if (t != debuginfo::void_type) {
      TargetVar r;
      r.name = "return";
      r.type = t;
      r.loc.kind = VarLocation::Value;
      r.loc.user = opts.user;
      const arch::Register *ax = arch::find_register(opts.arch, opts.arch.return_reg);
      std::string regs = "c->regs";
      r.loc.c_expr = ax ? arch::register_c(opts.arch, *ax, regs) : "0";
      const debuginfo::TypeTable &tt = *types.table();
      if (tt[tt.strip(t)].size > opts.arch.long_size && opts.arch.long_size == 4) {
        // i386: a 64-bit value comes back in edx:eax
        const arch::Register *dx = arch::find_register(opts.arch, "dx");
        r.loc.c_expr = "(((unsigned long long)" + arch::register_c(opts.arch, *dx, regs) +
                       " << 32) | (unsigned long long)" + r.loc.c_expr + ")";
      }
      scope->return_value = std::move(r);
    }
  }
  return scope;
}

} // namespace stap::dwarf
