#include "arch/arch.h"

#include <string>

namespace stap::arch {
namespace {

// x86_64: DWARF numbers from the System V AMD64 psABI (rax rdx rcx rbx rsi
// rdi rbp rsp r8..r15, 16 = return address column, i.e. rip).
const Arch x86_64 = {
    "x86_64", 8,
    {{"ax", {"rax", "eax"}, 0, 8},  {"dx", {"rdx", "edx"}, 1, 8},  {"cx", {"rcx", "ecx"}, 2, 8},
     {"bx", {"rbx", "ebx"}, 3, 8},  {"si", {"rsi", "esi"}, 4, 8},  {"di", {"rdi", "edi"}, 5, 8},
     {"bp", {"rbp", "ebp"}, 6, 8},  {"sp", {"rsp", "esp"}, 7, 8},  {"r8", {}, 8, 8},
     {"r9", {}, 9, 8},              {"r10", {}, 10, 8},            {"r11", {}, 11, 8},
     {"r12", {}, 12, 8},            {"r13", {}, 13, 8},            {"r14", {}, 14, 8},
     {"r15", {}, 15, 8},            {"ip", {"rip", "eip"}, 16, 8}, {"flags", {"eflags", "rflags"}, 49, 8},
     {"orig_ax", {"orig_rax"}, -1, 8}},
    {"di", "si", "dx", "cx", "r8", "r9"},
    {"di", "si", "dx", "cx", "r8", "r9"},
    "ax", "sp", "ip"};

// i386: DWARF numbers from the i386 System V ABI (eax ecx edx ebx esp ebp
// esi edi, 8 = eip). The kernel is built with -mregparm=3.
const Arch i386 = {
    "i386", 4,
    {{"ax", {"eax"}, 0, 4}, {"cx", {"ecx"}, 1, 4}, {"dx", {"edx"}, 2, 4},
     {"bx", {"ebx"}, 3, 4}, {"sp", {"esp"}, 4, 4}, {"bp", {"ebp"}, 5, 4},
     {"si", {"esi"}, 6, 4}, {"di", {"edi"}, 7, 4}, {"ip", {"eip"}, 8, 4},
     {"flags", {"eflags"}, 9, 4}, {"orig_ax", {"orig_eax"}, -1, 4}},
    {"ax", "dx", "cx"},
    {},
    "ax", "sp", "ip"};

} // namespace

const Arch *find_arch(std::string_view name) {
  if (name == "x86_64")
    return &x86_64;
  if (name == "i386" || name == "i686")
    return &i386;
  return nullptr;
}

const Register *find_register(const Arch &a, std::string_view name) {
  for (const Register &r : a.regs) {
    if (r.name == name)
      return &r;
    for (std::string_view alias : r.aliases)
      if (alias == name)
        return &r;
  }
  return nullptr;
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

} // namespace stap::arch
