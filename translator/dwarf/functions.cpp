#include "dwarf/functions.h"

#include "lang/glob.h"

#include <algorithm>
#include <dwarf.h>
#include <functional>
#include <map>
#include <set>

namespace stap::dwarf {
namespace {

std::string decl_file(Dwarf_Die *die) {
  const char *f = dwarf_decl_file(die);
  return f ? f : "";
}

int decl_line(Dwarf_Die *die) {
  int l = 0;
  dwarf_decl_line(die, &l);
  return l;
}

// Each compilation unit's DIE.
void for_each_cu(DebugFile &file, const std::function<void(Dwarf_Die &)> &fn) {
  if (!file.dwarf())
    return;
  Dwarf_Off off = 0, next;
  size_t header_size;
  while (dwarf_nextcu(file.dwarf(), off, &next, &header_size, nullptr, nullptr, nullptr) == 0) {
    Dwarf_Die cu;
    if (dwarf_offdie(file.dwarf(), off + header_size, &cu))
      fn(cu);
    off = next;
  }
}

// Every DIE below `die` that code can be in, depth first: functions,
// blocks and inline instances, not the (many) types.
bool holds_code(int tag) {
  return tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block ||
         tag == DW_TAG_inlined_subroutine || tag == DW_TAG_namespace ||
         tag == DW_TAG_compile_unit || tag == DW_TAG_partial_unit;
}

void walk(Dwarf_Die *die, const std::function<void(Dwarf_Die &)> &fn) {
  Dwarf_Die child;
  if (dwarf_child(die, &child) != 0)
    return;
  do {
    fn(child);
    if (holds_code(dwarf_tag(&child)))
      walk(&child, fn);
  } while (dwarf_siblingof(&child, &child) == 0);
}

struct Matcher {
  const FunctionPattern &p;
  bool matches(Dwarf_Die *die) const {
    const char *name = dwarf_diename(die);
    if (!name || !lang::glob_match(p.function, name))
      return false;
    return !p.has_file() || file_matches(p.file, decl_file(die));
  }
};

// A function's entry: DW_AT_low_pc, or, for one split into hot and cold
// parts (DW_AT_ranges), the start of its first range, the hot part.
bool first_address(Dwarf_Die *die, Dwarf_Addr &out) {
  if (dwarf_lowpc(die, &out) == 0)
    return true;
  Dwarf_Addr base, start, end;
  return dwarf_ranges(die, 0, &base, &start, &end) > 0 && (out = start, true);
}

FunctionInfo info_of(Dwarf_Die *die, bool inlined) {
  FunctionInfo f;
  f.name = dwarf_diename(die);
  f.decl_file = decl_file(die);
  f.decl_line = decl_line(die);
  f.die = dwarf_dieoffset(die);
  f.inlined = inlined;
  Dwarf_Attribute a;
  bool ext = false;
  if (dwarf_attr_integrate(die, DW_AT_external, &a))
    dwarf_formflag(&a, &ext);
  f.external = ext;
  Dwarf_Addr entry = 0;
  dwarf_entrypc(die, &entry);
  f.entry = f.probe = entry;
  return f;
}

// The functions of `file` whose DIEs `matches` accepts: out-of-line ones
// and/or inline instances, sorted by name, then address.
std::vector<FunctionInfo> collect(DebugFile &file, const std::function<bool(Dwarf_Die *)> &matches,
                                  bool out_of_line, bool inlines) {
  std::vector<FunctionInfo> out;
  std::set<Dwarf_Off> seen;
  for_each_cu(file, [&](Dwarf_Die &cu) {
    walk(&cu, [&](Dwarf_Die &die) {
      int tag = dwarf_tag(&die);
      if (tag == DW_TAG_subprogram && out_of_line) {
        Dwarf_Addr low;
        if (dwarf_hasattr(&die, DW_AT_declaration) || !first_address(&die, low) ||
            !matches(&die) || !seen.insert(dwarf_dieoffset(&die)).second)
          return;
        FunctionInfo f = info_of(&die, false);
        f.entry = low;
        f.probe = low;
        Dwarf_Addr *bkpts = nullptr;
        int n = dwarf_entry_breakpoints(&die, &bkpts);
        if (n > 0)
          f.probe = bkpts[0];
        free(bkpts);
        out.push_back(std::move(f));
      } else if (tag == DW_TAG_inlined_subroutine && inlines) {
        if (!matches(&die) || !seen.insert(dwarf_dieoffset(&die)).second)
          return;
        FunctionInfo f = info_of(&die, true);
        if (f.entry)
          out.push_back(std::move(f));
      }
    });
  });
  std::sort(out.begin(), out.end(), [](const FunctionInfo &a, const FunctionInfo &b) {
    return a.name != b.name ? a.name < b.name : a.entry < b.entry;
  });
  return out;
}

} // namespace

std::vector<FunctionInfo> find_functions(DebugFile &file, const FunctionPattern &p, bool out_of_line,
                                         bool inlines) {
  Matcher m{p};
  return collect(file, [&](Dwarf_Die *die) { return m.matches(die); }, out_of_line, inlines);
}

bool function_die(DebugFile &file, const FunctionInfo &fn, Dwarf_Die &out) {
  return file.dwarf() && dwarf_offdie(file.dwarf(), fn.die, &out) != nullptr;
}

std::vector<SourceLine> source_lines(DebugFile &file, const FunctionInfo &fn, int64_t first,
                                     int64_t last, bool nearest) {
  std::vector<SourceLine> out;
  Dwarf_Die die, cu;
  if (!function_die(file, fn, die) || !dwarf_diecu(&die, &cu, nullptr, nullptr))
    return out;
  Dwarf_Lines *lines;
  size_t n;
  if (dwarf_getsrclines(&cu, &lines, &n) != 0)
    return out;
  // line -> lowest statement address inside the function, in its file
  std::map<int, Dwarf_Addr> first_addr;
  for (size_t i = 0; i < n; ++i) {
    Dwarf_Line *l = dwarf_onesrcline(lines, i);
    Dwarf_Addr addr;
    int lineno;
    bool stmt = false, end = false;
    const char *src = dwarf_linesrc(l, nullptr, nullptr);
    if (dwarf_lineaddr(l, &addr) != 0 || dwarf_lineno(l, &lineno) != 0 || !src)
      continue;
    dwarf_linebeginstatement(l, &stmt);
    dwarf_lineendsequence(l, &end);
    if (!stmt || end || src != fn.decl_file || dwarf_haspc(&die, addr) <= 0)
      continue;
    auto it = first_addr.find(lineno);
    if (it == first_addr.end() || addr < it->second)
      first_addr[lineno] = addr;
  }
  for (int64_t line = first; line <= last; ++line) {
    auto it = first_addr.lower_bound(static_cast<int>(line));
    if (it == first_addr.end())
      break;
    if (it->first != line) {
      if (!nearest || first != last)
        continue;
    }
    out.push_back(SourceLine{fn.decl_file, it->first, it->second});
  }
  return out;
}

std::vector<LabelInfo> find_labels(DebugFile &file, const FunctionInfo &fn, const std::string &pattern) {
  std::vector<LabelInfo> out;
  Dwarf_Die die;
  if (!function_die(file, fn, die))
    return out;
  walk(&die, [&](Dwarf_Die &d) {
    Dwarf_Addr addr;
    const char *name = dwarf_diename(&d);
    if (dwarf_tag(&d) == DW_TAG_label && name && dwarf_lowpc(&d, &addr) == 0 &&
        lang::glob_match(pattern, name))
      out.push_back(LabelInfo{name, decl_file(&d), decl_line(&d), addr});
  });
  return out;
}

std::vector<Callee> find_callees(DebugFile &file, const FunctionInfo &fn, const std::string &pattern) {
  Dwarf_Die die;
  if (!function_die(file, fn, die))
    return {};
  // Callee DIE (a definition, its abstract instance or a declaration) ->
  // the calls' return addresses.
  struct Calls {
    std::string name;
    std::vector<Dwarf_Addr> return_pcs;
    bool tail = false;
  };
  std::map<Dwarf_Off, Calls> calls;
  std::vector<Callee> out;
  walk(&die, [&](Dwarf_Die &d) {
    int tag = dwarf_tag(&d);
    if (tag != DW_TAG_call_site && tag != DW_TAG_GNU_call_site)
      return;
    Dwarf_Attribute a;
    Dwarf_Die callee;
    if (!(dwarf_attr(&d, DW_AT_call_origin, &a) || dwarf_attr(&d, DW_AT_abstract_origin, &a)) ||
        !dwarf_formref_die(&a, &callee))
      return; // through a pointer
    const char *name = dwarf_diename(&callee);
    if (!name || !lang::glob_match(pattern, name))
      return;
    Calls &c = calls[dwarf_dieoffset(&callee)];
    c.name = name;
    bool tail = dwarf_hasattr(&d, DW_AT_call_tail_call) || dwarf_hasattr(&d, DW_AT_GNU_tail_call);
    Dwarf_Addr ret;
    // DWARF 5 names the return address; GCC's DWARF 4 extension puts it
    // in the call site's low_pc.
    if (tail)
      c.tail = true;
    else if ((dwarf_attr(&d, DW_AT_call_return_pc, &a) && dwarf_formaddr(&a, &ret) == 0) ||
             dwarf_lowpc(&d, &ret) == 0)
      c.return_pcs.push_back(ret);
  });
  // The out-of-line definitions the calls reach, in one pass over the
  // file: the callee DIE itself, the concrete instance of an abstract one,
  // or (a declaration) the external definition of that name.
  std::set<std::string> names;
  for (const auto &[off, c] : calls)
    names.insert(c.name);
  std::vector<FunctionInfo> defs = collect(
      file,
      [&](Dwarf_Die *d) {
        const char *n = dwarf_diename(d);
        return n && names.count(n);
      },
      true, false);
  for (auto &[off, c] : calls) {
    Dwarf_Die callee;
    bool declaration = dwarf_offdie(file.dwarf(), off, &callee) &&
                       dwarf_hasattr(&callee, DW_AT_declaration);
    const FunctionInfo *def = nullptr;
    for (const FunctionInfo &f : defs) {
      if (f.name != c.name)
        continue;
      Dwarf_Die fd, origin;
      Dwarf_Attribute a;
      bool same = f.die == off ||
                  (dwarf_offdie(file.dwarf(), f.die, &fd) &&
                   dwarf_attr(&fd, DW_AT_abstract_origin, &a) && dwarf_formref_die(&a, &origin) &&
                   dwarf_dieoffset(&origin) == off);
      if (same || (declaration && f.external && !def))
        def = &f;
      if (same)
        break;
    }
    if (!def)
      continue; // in another object (the kernel, for a module)
    out.push_back(Callee{*def, std::move(c.return_pcs), c.tail});
  }
  std::sort(out.begin(), out.end(), [](const Callee &a, const Callee &b) {
    return a.fn.name != b.fn.name ? a.fn.name < b.fn.name : a.fn.entry < b.fn.entry;
  });
  return out;
}

std::optional<int64_t> frame_size_at(DebugFile &file, Dwarf_Addr pc, int sp_dwarf_regno) {
  Dwarf_Addr cfi_bias = 0;
  Dwarf_CFI *cfi = file.cfi(cfi_bias);
  Dwarf_Frame *frame = nullptr;
  if (!cfi || dwarf_cfi_addrframe(cfi, pc + file.bias() - cfi_bias, &frame) != 0)
    return std::nullopt;
  Dwarf_Op *ops = nullptr;
  size_t n = 0;
  std::optional<int64_t> out;
  if (dwarf_frame_cfa(frame, &ops, &n) == 0 && n == 1) {
    const Dwarf_Op &o = ops[0];
    if (o.atom == DW_OP_bregx && o.number == static_cast<Dwarf_Word>(sp_dwarf_regno))
      out = static_cast<int64_t>(o.number2);
    else if (o.atom == DW_OP_breg0 + sp_dwarf_regno)
      out = static_cast<int64_t>(o.number);
  }
  free(frame);
  return out;
}

} // namespace stap::dwarf
