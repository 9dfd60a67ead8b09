#include "probes/sdt_notes.h"

#include "arch/arch.h"

#include <cctype>
#include <cstring>
#include <map>
#include <sstream>

namespace stap::probes {
namespace {

// A register operand's name ("edi", "r8d", "ah") as the pt_regs field of
// its full register, its width and bit offset.
struct RegName {
  std::string field;
  unsigned bytes = 0, shift = 0;
};

std::optional<RegName> decode_register(std::string name, bool is_64) {
  const arch::Arch *a = arch::find_arch(is_64 ? "x86_64" : "i386");
  auto full = [&](const std::string &n, unsigned bytes, unsigned shift) -> std::optional<RegName> {
    const arch::Register *r = arch::find_register(*a, n);
    if (!r)
      return std::nullopt;
    return RegName{std::string(r->name), bytes, shift};
  };
  // r8..r15 and their d/w/b (or l) forms
  if (is_64 && name.size() >= 2 && name[0] == 'r' && isdigit((unsigned char)name[1])) {
    size_t i = 1;
    while (i < name.size() && isdigit((unsigned char)name[i]))
      ++i;
    std::string base = name.substr(0, i), suffix = name.substr(i);
    unsigned bytes = suffix.empty() ? 8 : suffix == "d" ? 4 : suffix == "w" ? 2
                                          : (suffix == "b" || suffix == "l") ? 1 : 0;
    return bytes ? full(base, bytes, 0) : std::nullopt;
  }
  static const char *const legacy[] = {"ax", "bx", "cx", "dx", "si", "di", "bp", "sp"};
  for (const char *l : legacy) {
    std::string x = l;
    if (name == "r" + x)
      return is_64 ? full(x, 8, 0) : std::nullopt;
    if (name == "e" + x)
      return full(x, 4, 0);
    if (name == x)
      return full(x, 2, 0);
    bool abcd = x[1] == 'x';
    if (abcd && name == std::string(1, x[0]) + "l")
      return full(x, 1, 0);
    if (abcd && name == std::string(1, x[0]) + "h")
      return full(x, 1, 8);
    if (!abcd && name == x + "l" && is_64) // sil, dil, bpl, spl
      return full(x, 1, 0);
  }
  if (name == "rip" || name == "eip")
    return full("ip", is_64 ? 8 : 4, 0);
  return std::nullopt;
}

bool parse_number(const std::string &s, int64_t &v) {
  if (s.empty())
    return false;
  errno = 0;
  char *end = nullptr;
  long long x = strtoll(s.c_str(), &end, 0);
  if (*end || errno)
    return false;
  v = x;
  return true;
}

class OperandParser {
public:
  OperandParser(bool is_64, const symtab::ElfImage *elf) : is_64_(is_64), elf_(elf) {}

  SdtArg parse(const std::string &word) {
    SdtArg a;
    std::string op = word;
    // "SIZE@OPERAND" (old notes have no size)
    size_t at = word.find('@');
    if (at != std::string::npos && at > 0) {
      int64_t size;
      if (parse_number(word.substr(0, at), size) && size >= -8 && size <= 8) {
        a.size = static_cast<int>(size);
        op = word.substr(at + 1);
      }
    }
    a.text = op;
    if (op.empty())
      return bad(a, "empty operand");
    if (op[0] == '$') {
      if (!parse_number(op.substr(1), a.disp))
        return bad(a, "not a constant");
      a.kind = SdtArg::Const;
      return a;
    }
    if (op[0] == '%') {
      auto r = decode_register(op.substr(1), is_64_);
      if (!r)
        return bad(a, "unknown register");
      a.kind = SdtArg::Reg;
      a.base = r->field;
      a.reg_bytes = r->bytes;
      a.shift = r->shift;
      return a;
    }
    if (op.find(':') != std::string::npos)
      return bad(a, "segment-relative operand");
    // DISP(BASE[,INDEX[,SCALE]]) or DISP alone (an absolute address)
    std::string disp = op, inside;
    size_t paren = op.find('(');
    if (paren != std::string::npos) {
      if (op.back() != ')')
        return bad(a, "unbalanced parentheses");
      disp = op.substr(0, paren);
      inside = op.substr(paren + 1, op.size() - paren - 2);
    }
    a.kind = SdtArg::Mem;
    if (!disp.empty() && !parse_number(disp, a.disp)) {
      if (!symbol_disp(disp, a))
        return a;
    }
    if (paren == std::string::npos) {
      if (!a.relocate && disp.empty())
        return bad(a, "no address");
      return a;
    }
    std::vector<std::string> parts;
    std::stringstream ss(inside);
    for (std::string p; std::getline(ss, p, ',');)
      parts.push_back(p);
    if (parts.empty() || parts.size() > 3)
      return bad(a, "bad memory operand");
    if (!parts[0].empty() && !reg_field(parts[0], a.base, a))
      return a;
    if (parts.size() > 1 && !reg_field(parts[1], a.index, a))
      return a;
    if (parts.size() > 2) {
      int64_t scale;
      if (!parse_number(parts[2], scale) || (scale != 1 && scale != 2 && scale != 4 && scale != 8))
        return bad(a, "bad scale");
      a.scale = static_cast<unsigned>(scale);
    }
    if (a.base == "ip") {
      // SYMBOL(%rip): the assembler made it pc-relative; the note names
      // the symbol itself, so the address is the symbol's.
      if (!a.relocate)
        return bad(a, "a %rip-relative operand without a symbol");
      a.base.clear();
    }
    return a;
  }

private:
  SdtArg &bad(SdtArg &a, const std::string &why) {
    a.kind = SdtArg::Bad;
    a.why = why;
    return a;
  }

  bool reg_field(const std::string &text, std::string &field, SdtArg &a) {
    auto r = text.size() > 1 && text[0] == '%' ? decode_register(text.substr(1), is_64_)
                                               : std::nullopt;
    if (!r || r->shift) {
      bad(a, "bad address register '" + text + "'");
      return false;
    }
    field = r->field;
    return true;
  }

  // "sym", "sym+8", "sym-4": the symbol's link-time address.
  bool symbol_disp(const std::string &text, SdtArg &a) {
    size_t op = text.find_first_of("+-", 1);
    std::string name = text.substr(0, op);
    int64_t off = 0;
    if (op != std::string::npos && !parse_number(text.substr(op), off)) {
      bad(a, "bad displacement");
      return false;
    }
    // i386 PIC: SYM@GOTOFF(%ebx) is SYM's offset from the GOT, whose
    // address the code keeps in the register: no load bias to add.
    bool gotoff = false;
    if (size_t at = name.find('@'); at != std::string::npos) {
      if (name.substr(at) != "@GOTOFF") {
        bad(a, "a GOT-relative operand");
        return false;
      }
      gotoff = true;
      name.erase(at);
    }
    auto sym = symbol(name);
    if (!sym) {
      bad(a, elf_ ? "no symbol '" + name + "'" : "a symbol");
      return false;
    }
    a.disp = static_cast<int64_t>(*sym) + off;
    if (gotoff) {
      auto got = symbol("_GLOBAL_OFFSET_TABLE_");
      if (!got)
        if (auto sec = elf_->section(".got.plt"))
          got = sec->vaddr;
      if (!got) {
        bad(a, "no GOT for '" + name + "@GOTOFF'");
        return false;
      }
      a.disp -= static_cast<int64_t>(*got);
      return true;
    }
    a.relocate = true;
    return true;
  }

  std::optional<uint64_t> symbol(const std::string &name) {
    if (!elf_)
      return std::nullopt;
    if (symbols_.empty())
      for (const symtab::ElfSymbol &s : elf_->defined_symbols())
        symbols_.emplace(s.name, s.value);
    auto it = symbols_.find(name);
    if (it == symbols_.end())
      return std::nullopt;
    return it->second;
  }

  bool is_64_;
  const symtab::ElfImage *elf_;
  std::map<std::string, uint64_t> symbols_;
};

uint64_t read_addr(const uint8_t *p, bool is_64) {
  uint64_t v = 0;
  std::memcpy(&v, p, is_64 ? 8 : 4); // little endian: x86
  return v;
}

} // namespace

std::vector<SdtArg> parse_sdt_args(const std::string &args, bool is_64,
                                   const symtab::ElfImage *elf) {
  std::vector<SdtArg> out;
  OperandParser parser(is_64, elf);
  std::stringstream ss(args);
  for (std::string word; ss >> word;)
    out.push_back(parser.parse(word));
  return out;
}

std::vector<SdtMarker> sdt_markers(const symtab::ElfImage &elf) {
  std::vector<SdtMarker> out;
  auto notes = elf.section(".note.stapsdt");
  if (!notes)
    return out;
  auto base_section = elf.section(".stapsdt.base");
  const bool is_64 = elf.is_64();
  const size_t addr = is_64 ? 8 : 4;
  const std::vector<uint8_t> &b = notes->bytes;
  size_t off = 0;
  auto align4 = [](size_t x) { return (x + 3) & ~size_t(3); };
  while (off + 12 <= b.size()) {
    uint32_t namesz, descsz, type;
    std::memcpy(&namesz, &b[off], 4);
    std::memcpy(&descsz, &b[off + 4], 4);
    std::memcpy(&type, &b[off + 8], 4);
    size_t name_at = off + 12, desc_at = name_at + align4(namesz);
    size_t next = desc_at + align4(descsz);
    if (next > b.size() || desc_at + descsz > b.size())
      break;
    off = next;
    if (type != 3 || namesz != 8 || std::memcmp(&b[name_at], "stapsdt", 8) != 0 ||
        descsz < 3 * addr)
      continue;
    const uint8_t *d = &b[desc_at];
    SdtMarker m;
    m.pc = read_addr(d, is_64);
    uint64_t note_base = read_addr(d + addr, is_64);
    m.semaphore = read_addr(d + 2 * addr, is_64);
    // Strings: provider, name, arguments (each NUL-terminated).
    std::vector<std::string> strs;
    size_t p = 3 * addr;
    while (p < descsz && strs.size() < 3) {
      const char *s = reinterpret_cast<const char *>(d + p);
      size_t n = strnlen(s, descsz - p);
      strs.emplace_back(s, n);
      p += n + 1;
    }
    if (strs.size() < 2)
      continue;
    if (base_section && note_base) {
      m.pc += base_section->vaddr - note_base;
      if (m.semaphore)
        m.semaphore += base_section->vaddr - note_base;
    }
    m.provider = strs[0];
    m.name = strs[1];
    if (strs.size() > 2)
      m.args = parse_sdt_args(strs[2], is_64, &elf);
    out.push_back(std::move(m));
  }
  return out;
}

} // namespace stap::probes
