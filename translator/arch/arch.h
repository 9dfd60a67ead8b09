// What the translator knows about each target architecture, in one place:
// registers (script names, pt_regs fields, DWARF numbers), the calling
// conventions that place function arguments, the return register, and
// the system call entry points and their argument registers.
// Everything that turns "argument 2" or "DWARF register 5" into C reads
// this table; nothing else spells out a register. The module gets it as C
// too (codegen/arch_c.cpp), for the run-time fetches of runtime/stp_fetch.h.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace stap::arch {

// A narrower name for part of a register: "eax" is the low 4 bytes of
// x86_64's ax, "ah" the byte above "al".
struct RegisterPart {
  std::string_view name;
  unsigned size = 0;  // bytes
  unsigned shift = 0; // bits from the register's low end
};

struct Register {
  std::string_view name;                 // register("NAME") and the pt_regs field: "ax"
  std::vector<std::string_view> aliases; // other names of the whole register: "rax"
  int dwarf = -1;                        // DWARF register number, -1 when it has none
  unsigned size = 0;                     // bytes
  std::vector<RegisterPart> parts;       // "eax", "al", "ah"
};

// How one kind of program enters the kernel with a system call: the
// kernel's entry function for syscall NAME is `entry_prefix + NAME`
// (`fallback_prefix + NAME` when the ABI has no entry of its own for it),
// and the call's arguments are in `arg_regs` of the saved user registers.
struct SyscallAbi {
  std::string_view name;            // "x64", "i386", "compat" (scripts/gen-syscalls' names)
  std::string_view entry_prefix;    // "__x64_sys_"
  std::string_view fallback_prefix; // compat: "__ia32_sys_"; else ""
  std::vector<std::string_view> arg_regs;
  unsigned arg_size = 0; // bytes of each argument: 4 for 32-bit programs
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
  // regparm(N) conventions exist (i386): asmlinkage() puts every argument
  // on the stack, fastcall() the first three in registers. Elsewhere
  // both are no-ops, as in SystemTap 4.8.
  bool regparm = false;
  // The native system calls first, then those of 32-bit programs on a
  // 64-bit kernel.
  std::vector<SyscallAbi> syscall_abis;
  // The arch of 32-bit programs on this kernel (i386 on x86_64), whose
  // user calling convention and syscall ABI they follow; nullptr if none.
  const Arch *compat = nullptr;
};

// The table for `name` ("x86_64", "i386"); nullptr for an unknown arch.
const Arch *find_arch(std::string_view name);
// A register by name, alias or part name; nullptr when `a` has none by
// that name.
const Register *find_register(const Arch &a, std::string_view name);
// A register by DWARF number; nullptr when out of range.
const Register *dwarf_register(const Arch &a, int regno);
// C that reads register `r` from `struct pt_regs *regs_expr` as an unsigned
// long: "((unsigned long)(regs)->ax)".
std::string register_c(const Arch &a, const Register &r, std::string_view regs_expr);

// What a script's register name means: which register, and which of its
// bytes ("eax": ax's low 4; "ah": 1 byte, 8 bits up).
struct RegisterName {
  const Register *reg = nullptr;
  unsigned size = 0;
  unsigned shift = 0;
};
// reg == nullptr when `name` names no register of `a`.
RegisterName register_name(const Arch &a, std::string_view name);
// Every name register() accepts on `a`, in table order ("ax", "rax",
// "eax", "al", ...), for messages and the module's table.
std::vector<std::pair<std::string_view, RegisterName>> register_names(const Arch &a);

// The native syscall ABI of `a` (its first).
const SyscallAbi &native_syscalls(const Arch &a);

} // namespace stap::arch
