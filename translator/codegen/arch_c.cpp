#include "codegen/arch_c.h"

#include <string>
#include <vector>

namespace stap::codegen {
namespace {

// STP_OFF(f): offsetof(struct pt_regs, f) (runtime/stp_fetch.h).
std::string field(std::string_view reg) { return "STP_OFF(" + std::string(reg) + ")"; }

// `{ STP_OFF(di), ... }` for a list of register names.
std::string offsets(const std::vector<std::string_view> &regs) {
  std::string s = "{";
  for (size_t i = 0; i < regs.size(); ++i)
    s += (i ? ", " : " ") + field(regs[i]);
  return s + (regs.empty() ? "}" : " }");
}

// One `struct stp_reg_name` initializer.
std::string reg_entry(std::string_view name, const arch::RegisterName &r) {
  // STP_PT(f): the field's offset and size (runtime/stp_fetch.h).
  return "{ \"" + std::string(name) + "\", STP_PT(" + std::string(r.reg->name) + "), " +
         std::to_string(r.size) + ", " + std::to_string(r.shift) + " }";
}

void define(Emitter &out, const std::string &name, const std::string &value) {
  out.raw_line("#define " + name + " " + value);
}

// A multi-line table macro: `#define NAME { \` ... `}`.
void define_table(Emitter &out, const std::string &name, const std::vector<std::string> &rows) {
  out.raw_line("#define " + name + " { \\");
  for (const std::string &r : rows)
    out.raw_line("\t" + r + ", \\");
  out.raw_line("}");
}

} // namespace

void emit_arch_tables(Emitter &out, const arch::Arch &a) {
  out.comment("The registers and calling conventions of " + std::string(a.name) +
              " (translator/arch/arch.cpp), for runtime/stp_fetch.h.");
  std::vector<std::string> names;
  for (const auto &[name, r] : arch::register_names(a))
    names.push_back(reg_entry(name, r));
  define_table(out, "STP_REG_NAMES", names);

  // Indexed by DWARF number (the numbers the arch lacks stay { NULL }).
  std::vector<std::string> dwarf;
  for (const arch::Register &r : a.regs)
    if (r.dwarf >= 0)
      dwarf.push_back("[" + std::to_string(r.dwarf) + "] = " + reg_entry(r.name, {&r, r.size, 0}));
  define_table(out, "STP_DWARF_REGS", dwarf);

  define(out, "STP_KERNEL_ARG_REGS", offsets(a.kernel_arg_regs));
  define(out, "STP_USER_ARG_REGS", offsets(a.user_arg_regs));
  define(out, "STP_ARCH_REGPARM", a.regparm ? "1" : "0");
  const arch::SyscallAbi &sys = arch::native_syscalls(a);
  define(out, "STP_SYSCALL_ARG_REGS", offsets(sys.arg_regs));
  define(out, "STP_SYSCALL_ARG_SIZE", std::to_string(sys.arg_size));
  define(out, "STP_REG_RETURN", field(a.return_reg));
  define(out, "STP_REG_SP", field(a.sp_reg));
  define(out, "STP_REG_IP", field(a.ip_reg));
  if (a.compat) {
    // 32-bit programs on this kernel: their registers are this arch's
    // pt_regs fields of the same names.
    define(out, "STP_COMPAT", "1");
    define(out, "STP_COMPAT_USER_ARG_REGS", offsets(a.compat->user_arg_regs));
    define(out, "STP_COMPAT_REGPARM_REGS", offsets(a.compat->kernel_arg_regs));
    for (const arch::SyscallAbi &abi : a.syscall_abis)
      if (&abi != &sys) {
        define(out, "STP_COMPAT_SYSCALL_ARG_REGS", offsets(abi.arg_regs));
        define(out, "STP_COMPAT_SYSCALL_ARG_SIZE", std::to_string(abi.arg_size));
        break;
      }
  }
  out.raw_line("#include \"stp_fetch.h\"");
  out.blank();
}

} // namespace stap::codegen
