// What the translator knows about each target architecture, in one place:
// registers (script names, pt_regs fields, DWARF numbers), the calling
// conventions that place function arguments, and the return register.
// Everything that turns "argument 2" or "DWARF register 5" into C reads
// this table; nothing else spells out a register.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace stap::arch {

struct Register {
  std::string_view name;                 // register("NAME") and the pt_regs field: "ax"
  std::vector<std::string_view> aliases; // other names scripts use: "rax", "eax"
  int dwarf = -1;                        // DWARF register number, -1 when it has none
  unsigned size = 0;                     // bytes
};

struct Arch {
  std::string_view name; // the Target's arch: "x86_64" | "i386"
  unsigned long_size = 0;
  std::vector<Register> regs;
  // Function arguments in registers, in order (then on the stack): kernel
  // functions, and user functions (i386 passes user arguments on the stack).
  std::vector<std::string_view> kernel_arg_regs;
  std::vector<std::string_view> user_arg_regs;
  std::string_view return_reg;  // "ax"
  std::string_view sp_reg;      // "sp"
  std::string_view ip_reg;      // "ip"
};

// The table for `name` ("x86_64", "i386"); nullptr for an unknown arch.
const Arch *find_arch(std::string_view name);
// A register by name or alias; nullptr when `a` has none by that name.
const Register *find_register(const Arch &a, std::string_view name);
// A register by DWARF number; nullptr when out of range.
const Register *dwarf_register(const Arch &a, int regno);
// C that reads register `r` from `struct pt_regs *regs_expr` as an unsigned
// long: "((unsigned long)(regs)->ax)".
std::string register_c(const Arch &a, const Register &r, std::string_view regs_expr);

} // namespace stap::arch
