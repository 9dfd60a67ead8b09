#include "dwarf/location.h"

#include <dwarf.h>
#include <vector>

namespace stap::dwarf {
namespace {

using debuginfo::VarLocation;

std::string hex(uint64_t v) {
  char buf[32];
  snprintf(buf, sizeof buf, "0x%llxUL", static_cast<unsigned long long>(v));
  return buf;
}

std::string signed_num(int64_t v) {
  // The magnitude in unsigned arithmetic: -v overflows for INT64_MIN.
  uint64_t u = static_cast<uint64_t>(v);
  if (v < 0)
    return "- " + hex(0 - u);
  return "+ " + hex(u);
}

// One DW_OP_piece's worth: where that part of the value is.
struct Piece {
  VarLocation::Kind kind;
  std::string expr;
  uint64_t size; // bytes; 0 for the whole (no DW_OP_piece)
};

class Compiler {
public:
  Compiler(const LocationContext &ctx, std::string &why) : ctx_(ctx), why_(why) {}

  VarLocation run(const Dwarf_Op *ops, size_t n) {
    VarLocation unavailable;
    unavailable.kind = VarLocation::Unavailable;
    if (n == 0) {
      why_ = "optimized out";
      return unavailable;
    }
    for (size_t i = 0; i < n; ++i)
      if (!step(ops[i], i + 1 == n))
        return unavailable;
    if (pieces_.empty()) {
      if (!finish_piece(0))
        return unavailable;
    } else if (!stack_.empty() || pending_ != Pending::None) {
      why_ = "a location expression left values after its last piece";
      return unavailable;
    }
    return combine();
  }

private:
  enum class Pending { None, Register, StackValue, Implicit };

  bool fail(std::string why) {
    why_ = std::move(why);
    return false;
  }

  std::string reg(uint64_t regno) {
    if (regno > 0xffff) // no such register (and no wrapping into a real one)
      return "";
    const arch::Register *r = arch::dwarf_register(ctx_.arch, static_cast<int>(regno));
    if (!r)
      return "";
    return arch::register_c(ctx_.arch, *r, ctx_.regs);
  }

  bool pop(std::string &out) {
    if (stack_.empty())
      return fail("a location expression pops an empty stack");
    out = std::move(stack_.back());
    stack_.pop_back();
    return true;
  }

  bool binary(const char *op) {
    std::string b, a;
    if (!pop(b) || !pop(a))
      return false;
    stack_.push_back("(" + a + " " + op + " " + b + ")");
    return true;
  }

  bool step(const Dwarf_Op &op, bool last) {
    (void)last;
    if (pending_ != Pending::None && op.atom != DW_OP_piece && op.atom != DW_OP_bit_piece)
      return fail("a register or value location followed by more operations");
    uint8_t a = op.atom;
    if (a >= DW_OP_lit0 && a <= DW_OP_lit31) {
      stack_.push_back(hex(a - DW_OP_lit0));
      return true;
    }
    if ((a >= DW_OP_reg0 && a <= DW_OP_reg31) || a == DW_OP_regx) {
      uint64_t regno = a == DW_OP_regx ? op.number : a - DW_OP_reg0;
      std::string r = reg(regno);
      if (r.empty())
        return fail("DWARF register " + std::to_string(regno) + " has no pt_regs field on " +
                    std::string(ctx_.arch.name));
      value_ = r;
      pending_ = Pending::Register;
      return true;
    }
    if ((a >= DW_OP_breg0 && a <= DW_OP_breg31) || a == DW_OP_bregx) {
      uint64_t regno = a == DW_OP_bregx ? op.number : a - DW_OP_breg0;
      int64_t off = static_cast<int64_t>(a == DW_OP_bregx ? op.number2 : op.number);
      std::string r = reg(regno);
      if (r.empty())
        return fail("DWARF register " + std::to_string(regno) + " has no pt_regs field on " +
                    std::string(ctx_.arch.name));
      stack_.push_back(off ? "(" + r + " " + signed_num(off) + ")" : r);
      return true;
    }
    switch (a) {
    case DW_OP_addr: {
      if (!ctx_.address)
        return fail("no run-time address for static data here");
      std::string why;
      auto e = ctx_.address(op.number, why);
      if (!e)
        return fail(why);
      stack_.push_back(*e);
      return true;
    }
    case DW_OP_fbreg: {
      std::string why;
      auto fb = ctx_.frame_base ? ctx_.frame_base(why) : std::nullopt;
      if (!fb)
        return fail(why.empty() ? "no frame base" : why);
      int64_t off = static_cast<int64_t>(op.number);
      stack_.push_back(off ? "(" + *fb + " " + signed_num(off) + ")" : *fb);
      return true;
    }
    case DW_OP_call_frame_cfa: {
      std::string why;
      auto cfa = ctx_.cfa ? ctx_.cfa(why) : std::nullopt;
      if (!cfa)
        return fail(why.empty() ? "no call frame information" : why);
      stack_.push_back(*cfa);
      return true;
    }
    case DW_OP_const1u: case DW_OP_const2u: case DW_OP_const4u: case DW_OP_const8u:
    case DW_OP_constu:
      stack_.push_back(hex(op.number));
      return true;
    case DW_OP_const1s: case DW_OP_const2s: case DW_OP_const4s: case DW_OP_const8s:
    case DW_OP_consts: {
      // The two's-complement bits as an unsigned long long literal, then
      // cut to the target's long: a decimal -9223372036854775808L is not
      // valid C (the fuzzer found it).
      char b[40];
      snprintf(b, sizeof b, "(unsigned long)0x%llxULL", static_cast<unsigned long long>(op.number));
      stack_.push_back(b);
      return true;
    }
    case DW_OP_plus_uconst: {
      std::string x;
      if (!pop(x))
        return false;
      stack_.push_back("(" + x + " + " + hex(op.number) + ")");
      return true;
    }
    case DW_OP_plus: return binary("+");
    case DW_OP_minus: return binary("-");
    case DW_OP_mul: return binary("*");
    case DW_OP_and: return binary("&");
    case DW_OP_or: return binary("|");
    case DW_OP_xor: return binary("^");
    case DW_OP_shl: return binary("<<");
    case DW_OP_shr: return binary(">>");
    case DW_OP_shra: {
      std::string b, x;
      if (!pop(b) || !pop(x))
        return false;
      stack_.push_back("(unsigned long)((long)" + x + " >> " + b + ")");
      return true;
    }
    case DW_OP_neg: case DW_OP_not: {
      std::string x;
      if (!pop(x))
        return false;
      stack_.push_back(std::string("(") + (a == DW_OP_neg ? "-" : "~") + x + ")");
      return true;
    }
    case DW_OP_dup: {
      if (stack_.empty())
        return fail("DW_OP_dup on an empty stack");
      stack_.push_back(stack_.back());
      return true;
    }
    case DW_OP_drop: {
      std::string x;
      return pop(x);
    }
    case DW_OP_swap: {
      if (stack_.size() < 2)
        return fail("DW_OP_swap needs two values");
      std::swap(stack_[stack_.size() - 1], stack_[stack_.size() - 2]);
      return true;
    }
    case DW_OP_over: {
      if (stack_.size() < 2)
        return fail("DW_OP_over needs two values");
      stack_.push_back(stack_[stack_.size() - 2]);
      return true;
    }
    case DW_OP_stack_value: {
      if (!pop(value_))
        return false;
      pending_ = Pending::StackValue;
      return true;
    }
    case DW_OP_implicit_value: {
      if (op.number > 8)
        return fail("an implicit value wider than 8 bytes");
      uint64_t v = 0;
      const unsigned char *bytes = reinterpret_cast<const unsigned char *>(op.number2);
      for (uint64_t i = op.number; i-- > 0;)
        v = v << 8 | bytes[i]; // little-endian targets
      value_ = hex(v);
      pending_ = Pending::Implicit;
      return true;
    }
    case DW_OP_piece:
      return finish_piece(op.number);
    case DW_OP_nop:
      return true;
    case DW_OP_deref:
      return deref(ctx_.arch.long_size);
    case DW_OP_deref_size:
      return deref(op.number);
    case DW_OP_xderef: case DW_OP_xderef_size:
      return fail("a location that reads another address space (DW_OP_xderef) is not "
                  "supported");
    case DW_OP_entry_value: case DW_OP_GNU_entry_value:
      return entry_value(op);
    case DW_OP_GNU_parameter_ref: {
      std::string why;
      auto v = ctx_.parameter_ref ? ctx_.parameter_ref(op.number, why) : std::nullopt;
      if (!v)
        return fail("only its callers know its value (DW_OP_GNU_parameter_ref)" +
                    (why.empty() ? std::string() : ": " + why));
      stack_.push_back(*v);
      return true;
    }
    default:
      return fail("unsupported DWARF operation 0x" + [&] {
        char b[8];
        snprintf(b, sizeof b, "%02x", a);
        return std::string(b);
      }());
    }
  }

  // DW_OP_deref(_size): the address on top of the stack is replaced by
  // the `size` bytes there, zero-extended: a nofault read when the probe
  // runs (runtime/stp_target.h), so a bad address is a run-time error.
  bool deref(uint64_t size) {
    if (size != 1 && size != 2 && size != 4 && size != 8)
      return fail("a DW_OP_deref_size of " + std::to_string(size) + " bytes");
    if (size > ctx_.arch.long_size)
      return fail("a DW_OP_deref_size wider than an address");
    std::string addr;
    if (!pop(addr))
      return false;
    stack_.push_back("((unsigned long)stp_tv_read(c, (unsigned long)(" + addr + "), " +
                     std::to_string(size) + ", " + (ctx_.user ? "1" : "0") + ", " + ctx_.where +
                     "))");
    return true;
  }

  // DW_OP_entry_value(BLOCK): the value BLOCK had when the function was
  // entered. GCC's blocks are a register (DW_OP_regN: its value) or a
  // register-based address read (DW_OP_bregN off; DW_OP_deref). At the
  // function's first instruction that is the value now; elsewhere the
  // register has been reused and nothing kept it.
  bool entry_value(const Dwarf_Op &op) {
    const auto *p = reinterpret_cast<const unsigned char *>(op.number2);
    const unsigned char *end = p + op.number;
    if (!p || op.number == 0)
      return fail("an empty DW_OP_entry_value");
    std::string what = describe_entry_block(p, end);
    if (!ctx_.at_entry)
      return fail("its value at the function's entry (DW_OP_entry_value of " + what +
                  ") is not kept at this address: read it at the function's entry (a "
                  ".call or .callee probe on optimized code, or @entry() in a .return probe)");
    std::vector<Dwarf_Op> ops;
    if (!decode_entry_block(p, end, ops))
      return fail("a DW_OP_entry_value of an unsupported form (" + what + ")");
    bool is_register = ops.size() == 1 && (ops[0].atom == DW_OP_regx ||
                                           (ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31));
    if (is_register) {
      // A register in an entry value block stands for its contents.
      uint64_t regno = ops[0].atom == DW_OP_regx ? ops[0].number : ops[0].atom - DW_OP_reg0;
      std::string r = reg(regno);
      if (r.empty())
        return fail("DWARF register " + std::to_string(regno) + " has no pt_regs field on " +
                    std::string(ctx_.arch.name));
      stack_.push_back(r);
      return true;
    }
    for (const Dwarf_Op &o : ops)
      if (!step(o, false))
        return false;
    return true;
  }

  static bool uleb(const unsigned char *&p, const unsigned char *end, uint64_t &v) {
    v = 0;
    for (unsigned shift = 0; p < end && shift < 64; shift += 7) {
      unsigned char b = *p++;
      v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80))
        return true;
    }
    return false;
  }
  static bool sleb(const unsigned char *&p, const unsigned char *end, uint64_t &v) {
    v = 0;
    unsigned shift = 0;
    while (p < end && shift < 64) {
      unsigned char b = *p++;
      v |= uint64_t(b & 0x7f) << shift;
      shift += 7;
      if (!(b & 0x80)) {
        if (shift < 64 && (b & 0x40))
          v |= ~0ULL << shift;
        return true;
      }
    }
    return false;
  }

  // The block's operations: registers, base registers, derefs.
  static bool decode_entry_block(const unsigned char *p, const unsigned char *end,
                                 std::vector<Dwarf_Op> &ops) {
    while (p < end) {
      Dwarf_Op o{};
      o.atom = *p++;
      uint8_t a = o.atom;
      bool ok = true;
      if (a >= DW_OP_reg0 && a <= DW_OP_reg31) {
      } else if (a == DW_OP_regx) {
        ok = uleb(p, end, o.number);
      } else if (a >= DW_OP_breg0 && a <= DW_OP_breg31) {
        ok = sleb(p, end, o.number);
      } else if (a == DW_OP_bregx) {
        ok = uleb(p, end, o.number) && sleb(p, end, o.number2);
      } else if (a == DW_OP_deref) {
      } else if (a == DW_OP_deref_size) {
        ok = p < end;
        if (ok)
          o.number = *p++;
      } else {
        return false;
      }
      if (!ok || ops.size() >= 4)
        return false;
      ops.push_back(o);
    }
    return !ops.empty();
  }

  // The block for messages: "register di", "memory at a register".
  std::string describe_entry_block(const unsigned char *p, const unsigned char *end) const {
    std::vector<Dwarf_Op> ops;
    if (!decode_entry_block(p, end, ops))
      return "an expression";
    const Dwarf_Op &o = ops[0];
    if (ops.size() != 1 || !((o.atom >= DW_OP_reg0 && o.atom <= DW_OP_reg31) || o.atom == DW_OP_regx))
      return "memory at a register";
    uint64_t regno = o.atom == DW_OP_regx ? o.number : o.atom - DW_OP_reg0;
    const arch::Register *r =
        regno <= 0xffff ? arch::dwarf_register(ctx_.arch, static_cast<int>(regno)) : nullptr;
    return r ? "register " + std::string(r->name) : "DWARF register " + std::to_string(regno);
  }

  bool finish_piece(uint64_t size) {
    Piece p{VarLocation::Value, "", size};
    switch (pending_) {
    case Pending::None: {
      if (stack_.empty()) {
        if (size == 0)
          return fail("an empty location");
        p.kind = VarLocation::Unavailable; // a piece optimized out
        break;
      }
      std::string addr;
      pop(addr);
      p.kind = VarLocation::Address;
      p.expr = addr;
      break;
    }
    default:
      p.expr = value_;
      break;
    }
    pending_ = Pending::None;
    pieces_.push_back(std::move(p));
    return true;
  }

  // One location from the pieces: a single piece as it is; several
  // register/value pieces (a `long long` in two i386 registers, a small
  // struct in registers) as one value, the first piece lowest.
  VarLocation combine() {
    VarLocation out;
    out.user = ctx_.user;
    if (pieces_.size() == 1 && (pieces_[0].size == 0 || pieces_[0].kind != VarLocation::Value)) {
      out.kind = pieces_[0].kind;
      out.c_expr = pieces_[0].expr;
      if (out.kind == VarLocation::Unavailable)
        why_ = "optimized out";
      return out;
    }
    // Up to 64 bits in an unsigned long long; up to 128 (a 16-byte struct
    // in a register pair) in x86_64's unsigned __int128.
    uint64_t total = 0;
    for (const Piece &p : pieces_)
      total += p.size * 8;
    uint64_t limit = ctx_.arch.long_size == 8 ? 128 : 64;
    std::string wide = total > 64 ? "unsigned __int128" : "unsigned long long";
    uint64_t shift = 0;
    std::string expr;
    for (const Piece &p : pieces_) {
      if (p.kind != VarLocation::Value) {
        out.kind = VarLocation::Unavailable;
        why_ = p.kind == VarLocation::Unavailable
                   ? "partly optimized out"
                   : "a value split between registers and memory is not supported yet";
        return out;
      }
      if (p.size > 8 || shift + p.size * 8 > limit) {
        out.kind = VarLocation::Unavailable;
        why_ = "a value in pieces wider than " + std::to_string(limit) + " bits";
        return out;
      }
      std::string part = "((" + wide + ")" + p.expr + ")";
      if (p.size < 8)
        part = "(" + part + " & " + hex((1ULL << (p.size * 8)) - 1) + "L)";
      if (shift)
        part = "(" + part + " << " + std::to_string(shift) + ")";
      expr = expr.empty() ? part : expr + " | " + part;
      shift += p.size * 8;
    }
    out.kind = VarLocation::Value;
    out.c_expr = "(" + expr + ")";
    return out;
  }

  const LocationContext &ctx_;
  std::string &why_;
  std::vector<std::string> stack_;
  std::vector<Piece> pieces_;
  Pending pending_ = Pending::None;
  std::string value_;
};

} // namespace

debuginfo::VarLocation compile_location(const Dwarf_Op *ops, size_t n, const LocationContext &ctx,
                                        std::string &why) {
  return Compiler(ctx, why).run(ops, n);
}

} // namespace stap::dwarf
