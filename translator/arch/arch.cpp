#include "arch/arch.h"

#include <string>

namespace stap::arch {
namespace {

// The names of register() are SystemTap 4.8's documented ones (stapfuncs
// "register"): the whole register by its short or long name ("ax", "eax"
// on i386, "rax" on x86_64), on x86_64 the 32-bit halves ("eax"), and the
// byte registers. (4.8's x86_64 tapset reads "ax", "sp"... as 16-bit
// registers, against its own documentation; here they are the whole
// register, as in the kprobe event tracer's %ax.)

// i386: DWARF numbers from the i386 System V ABI (eax ecx edx ebx esp ebp
// esi edi, 8 = eip, 9 = eflags, 40.. = es cs ss ds fs). The kernel is
// built with -mregparm=3; user programs pass arguments on the stack.
const Arch i386 = {
    "i386",
    4,
    {{"ax", {"eax"}, 0, 4, {{"al", 1, 0}, {"ah", 1, 8}}},
     {"cx", {"ecx"}, 1, 4, {{"cl", 1, 0}, {"ch", 1, 8}}},
     {"dx", {"edx"}, 2, 4, {{"dl", 1, 0}, {"dh", 1, 8}}},
     {"bx", {"ebx"}, 3, 4, {{"bl", 1, 0}, {"bh", 1, 8}}},
     {"sp", {"esp"}, 4, 4, {}},
     {"bp", {"ebp"}, 5, 4, {}},
     {"si", {"esi"}, 6, 4, {}},
     {"di", {"edi"}, 7, 4, {}},
     {"ip", {"eip"}, 8, 4, {}},
     {"flags", {"eflags"}, 9, 4, {}},
     {"es", {"xes"}, 40, 2, {}},
     {"cs", {"xcs"}, 41, 2, {}},
     {"ss", {"xss"}, 42, 2, {}},
     {"ds", {"xds"}, 43, 2, {}},
     {"fs", {"xfs"}, 44, 2, {}},
     {"orig_ax", {"orig_eax"}, -1, 4, {}}},
    {"ax", "dx", "cx"},
    {},
    "ax",
    "sp",
    "ip",
    true,
    // scripts/gen-syscalls reads the prefixes of these lines.
    {{"i386", "__ia32_sys_", "", {"bx", "cx", "dx", "si", "di", "bp"}, 4}},
    nullptr};

// x86_64: DWARF numbers from the System V AMD64 psABI (rax rdx rcx rbx rsi
// rdi rbp rsp r8..r15, 16 = return address column, i.e. rip, 49 = rflags,
// 51 cs, 52 ss).
const Arch x86_64 = {
    "x86_64",
    8,
    {{"ax", {"rax"}, 0, 8, {{"eax", 4, 0}, {"al", 1, 0}, {"ah", 1, 8}}},
     {"dx", {"rdx"}, 1, 8, {{"edx", 4, 0}, {"dl", 1, 0}, {"dh", 1, 8}}},
     {"cx", {"rcx"}, 2, 8, {{"ecx", 4, 0}, {"cl", 1, 0}, {"ch", 1, 8}}},
     {"bx", {"rbx"}, 3, 8, {{"ebx", 4, 0}, {"bl", 1, 0}, {"bh", 1, 8}}},
     {"si", {"rsi"}, 4, 8, {{"esi", 4, 0}}},
     {"di", {"rdi"}, 5, 8, {{"edi", 4, 0}}},
     {"bp", {"rbp"}, 6, 8, {{"ebp", 4, 0}}},
     {"sp", {"rsp"}, 7, 8, {{"esp", 4, 0}}},
     {"r8", {}, 8, 8, {}},
     {"r9", {}, 9, 8, {}},
     {"r10", {}, 10, 8, {}},
     {"r11", {}, 11, 8, {}},
     {"r12", {}, 12, 8, {}},
     {"r13", {}, 13, 8, {}},
     {"r14", {}, 14, 8, {}},
     {"r15", {}, 15, 8, {}},
     {"ip", {"rip"}, 16, 8, {{"eip", 4, 0}}},
     {"flags", {"eflags", "rflags"}, 49, 8, {}},
     {"cs", {"xcs"}, 51, 8, {}},
     {"ss", {"xss"}, 52, 8, {}},
     {"orig_ax", {"orig_rax"}, -1, 8, {{"orig_eax", 4, 0}}}},
    {"di", "si", "dx", "cx", "r8", "r9"},
    {"di", "si", "dx", "cx", "r8", "r9"},
    "ax",
    "sp",
    "ip",
    false,
    // scripts/gen-syscalls reads the prefixes of these lines.
    {{"x64", "__x64_sys_", "", {"di", "si", "dx", "r10", "r8", "r9"}, 8},
     {"compat", "__ia32_compat_sys_", "__ia32_sys_", {"bx", "cx", "dx", "si", "di", "bp"}, 4}},
    &i386};

} // namespace

const Arch *find_arch(std::string_view name) {
  if (name == "x86_64")
    return &x86_64;
  if (name == "i386" || name == "i686")
    return &i386;
  return nullptr;
}

RegisterName register_name(const Arch &a, std::string_view name) {
  for (const Register &r : a.regs) {
    if (r.name == name)
      return {&r, r.size, 0};
    for (std::string_view alias : r.aliases)
      if (alias == name)
        return {&r, r.size, 0};
    for (const RegisterPart &p : r.parts)
      if (p.name == name)
        return {&r, p.size, p.shift};
  }
  return {};
}

std::vector<std::pair<std::string_view, RegisterName>> register_names(const Arch &a) {
  std::vector<std::pair<std::string_view, RegisterName>> out;
  for (const Register &r : a.regs) {
    out.push_back({r.name, {&r, r.size, 0}});
    for (std::string_view alias : r.aliases)
      out.push_back({alias, {&r, r.size, 0}});
    for (const RegisterPart &p : r.parts)
      out.push_back({p.name, {&r, p.size, p.shift}});
  }
  return out;
}

const Register *find_register(const Arch &a, std::string_view name) {
  return register_name(a, name).reg;
}

const Register *dwarf_register(const Arch &a, int regno) {
  for (const Register &r : a.regs)
    if (r.dwarf == regno && regno >= 0)
      return &r;
  return nullptr;
}

std::string register_c(const Arch &, const Register &r, std::string_view regs_expr) {
  // On 6.1 both kernels save a full pt_regs frame, so regs->sp is valid in
  // kernel mode too (kernel_stack_pointer() is just regs->sp).
  return "((unsigned long)(" + std::string(regs_expr) + ")->" + std::string(r.name) + ")";
}

const SyscallAbi &native_syscalls(const Arch &a) { return a.syscall_abis.front(); }

} // namespace stap::arch
