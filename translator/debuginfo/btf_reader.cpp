#include "debuginfo/btf_reader.h"

#include <cstring>

namespace stap::debuginfo {
namespace {

// The format's numbers (include/uapi/linux/btf.h).
enum BtfKind : uint32_t {
  BTF_UNKN, BTF_INT, BTF_PTR, BTF_ARRAY, BTF_STRUCT, BTF_UNION, BTF_ENUM, BTF_FWD, BTF_TYPEDEF,
  BTF_VOLATILE, BTF_CONST, BTF_RESTRICT, BTF_FUNC, BTF_FUNC_PROTO, BTF_VAR, BTF_DATASEC,
  BTF_FLOAT, BTF_DECL_TAG, BTF_TYPE_TAG, BTF_ENUM64,
};
constexpr uint16_t btf_magic = 0xeB9F;
constexpr uint32_t int_signed = 1, int_bool = 4;

struct Header {
  uint16_t magic;
  uint8_t version, flags;
  uint32_t hdr_len, type_off, type_len, str_off, str_len;
};

class Reader {
public:
  Reader(std::string_view types, std::string_view strings, const BtfTypes *base, unsigned ptr,
         BtfTypes &out)
      : data_(types), strings_(strings), base_(base), ptr_size_(ptr), out_(out) {}

  bool run(std::string &error) {
    uint32_t base_strings = base_ ? base_->string_bytes : 0;
    string_base_ = base_strings;
    while (pos_ < data_.size()) {
      uint32_t name_off, info, size_or_type;
      if (!u32(name_off) || !u32(info) || !u32(size_or_type))
        return fail(error, "truncated type");
      uint32_t kind = (info >> 24) & 0x1f, vlen = info & 0xffff;
      bool kflag = info >> 31;
      Type t;
      std::string_view name = str(name_off);
      // Most kinds are a name and a size, or a reference to another type.
      auto sized = [&](Kind k) {
        t.kind = k;
        t.name = name;
        t.size = size_or_type;
      };
      auto over = [&](Kind k) {
        t.kind = k;
        t.target = size_or_type;
      };
      switch (kind) {
      case BTF_INT: {
        uint32_t enc;
        if (!u32(enc))
          return fail(error, "truncated int");
        uint32_t encoding = (enc >> 24) & 0x0f;
        sized(encoding & int_bool ? Kind::Bool : Kind::Int);
        t.is_signed = encoding & int_signed;
        break;
      }
      case BTF_PTR:
        over(Kind::Pointer);
        t.size = ptr_size_;
        break;
      case BTF_ARRAY: {
        uint32_t elem, index, count;
        if (!u32(elem) || !u32(index) || !u32(count))
          return fail(error, "truncated array");
        t.kind = Kind::Array;
        t.target = elem;
        t.count = count;
        break;
      }
      case BTF_STRUCT: case BTF_UNION:
        sized(kind == BTF_STRUCT ? Kind::Struct : Kind::Union);
        if (!members(t, vlen, true, kflag))
          return fail(error, "truncated member");
        break;
      case BTF_ENUM: case BTF_ENUM64:
        sized(Kind::Enum);
        t.is_signed = kflag;
        for (uint32_t i = 0; i < vlen; ++i) {
          uint32_t ename, lo, hi = 0;
          if (!u32(ename) || !u32(lo) || (kind == BTF_ENUM64 && !u32(hi)))
            return fail(error, "truncated enum");
          int64_t v = kind == BTF_ENUM64 ? static_cast<int64_t>((uint64_t(hi) << 32) | lo)
                      : kflag            ? int64_t(int32_t(lo))
                                         : int64_t(lo);
          t.enumerators.emplace_back(std::string(str(ename)), v);
        }
        break;
      case BTF_FWD:
        t.kind = kflag ? Kind::Union : Kind::Struct;
        t.name = name;
        t.declaration = true;
        break;
      case BTF_TYPEDEF:
        over(Kind::Typedef);
        t.name = name;
        break;
      case BTF_VOLATILE: case BTF_CONST:
        over(kind == BTF_CONST ? Kind::Const : Kind::Volatile);
        break;
      case BTF_RESTRICT:
        over(Kind::Restrict);
        break;
      case BTF_TYPE_TAG: // __user, __rcu: an attribute, not a type of its own
        over(Kind::Typedef);
        t.user = name == "user"; // what a pointer to it points at is read from user memory
        break;
      case BTF_FUNC:
        // The function itself: a name for its prototype. Its slot stays a
        // nameless void so that type lookups never see it.
        if (!name.empty())
          out_.functions.emplace(std::string(name), size_or_type);
        break;
      case BTF_FUNC_PROTO:
        over(Kind::Func);
        if (!members(t, vlen, false, false))
          return fail(error, "truncated parameter");
        break;
      case BTF_VAR:
        if (!skip(4))
          return fail(error, "truncated variable");
        break;
      case BTF_DATASEC:
        if (!skip(12ull * vlen))
          return fail(error, "truncated data section");
        break;
      case BTF_FLOAT:
        t.kind = Kind::Float;
        t.name = name;
        t.size = size_or_type;
        break;
      case BTF_DECL_TAG:
        if (!skip(4))
          return fail(error, "truncated declaration tag");
        break;
      default:
        return fail(error, "unknown BTF kind " + std::to_string(kind));
      }
      out_.types.add(std::move(t));
    }
    return true;
  }

private:
  // `vlen` struct/union members (name, type, offset) or prototype
  // parameters (name, type; a last one of type 0 is `...`).
  bool members(Type &t, uint32_t vlen, bool with_offsets, bool kflag) {
    t.members.reserve(vlen);
    for (uint32_t i = 0; i < vlen; ++i) {
      uint32_t mname, mtype, offset = 0;
      if (!u32(mname) || !u32(mtype) || (with_offsets && !u32(offset)))
        return false;
      if (!with_offsets && mtype == 0 && i + 1 == vlen) {
        t.variadic = true;
        break;
      }
      Member m;
      m.name = str(mname);
      m.type = mtype;
      m.bit_offset = kflag ? offset & 0xffffff : offset;
      m.bit_size = kflag ? offset >> 24 : 0;
      t.members.push_back(std::move(m));
    }
    return true;
  }

  bool u32(uint32_t &v) {
    if (pos_ + 4 > data_.size())
      return false;
    std::memcpy(&v, data_.data() + pos_, 4);
    pos_ += 4;
    return true;
  }
  bool skip(uint64_t n) {
    if (pos_ + n > data_.size())
      return false;
    pos_ += n;
    return true;
  }
  // Split BTF: offsets below the base's string size are the base's.
  std::string_view str(uint32_t off) {
    if (off < string_base_)
      return base_ ? base_str(off) : std::string_view();
    off -= string_base_;
    if (off >= strings_.size())
      return {};
    return std::string_view(strings_.data() + off); // NUL-terminated inside the section
  }
  std::string_view base_str(uint32_t off) {
    if (off >= base_->strings.size())
      return {};
    return std::string_view(base_->strings.data() + off);
  }
  bool fail(std::string &error, std::string msg) {
    error = "malformed BTF at byte " + std::to_string(pos_) + ": " + std::move(msg);
    return false;
  }

  std::string_view data_, strings_;
  const BtfTypes *base_;
  unsigned ptr_size_;
  BtfTypes &out_;
  size_t pos_ = 0;
  uint32_t string_base_ = 0;
};

} // namespace

bool read_btf(std::string_view data, const BtfTypes *base, unsigned pointer_size, BtfTypes &out,
              std::string &error) {
  Header h;
  if (data.size() < sizeof(Header)) {
    error = "not BTF: too short";
    return false;
  }
  std::memcpy(&h, data.data(), sizeof(Header));
  if (h.magic != btf_magic) {
    error = "not BTF (bad magic; big-endian BTF is not supported)";
    return false;
  }
  uint64_t start = h.hdr_len;
  if (start + uint64_t(h.type_off) + h.type_len > data.size() ||
      start + uint64_t(h.str_off) + h.str_len > data.size()) {
    error = "malformed BTF: sections past the end";
    return false;
  }
  std::string_view types = data.substr(start + h.type_off, h.type_len);
  std::string_view strings = data.substr(start + h.str_off, h.str_len);
  if (!strings.empty() && strings.back() != '\0') {
    error = "malformed BTF: unterminated string section";
    return false;
  }
  if (base) {
    out.types = base->types;
    out.functions = base->functions;
  }
  out.string_bytes = (base ? base->string_bytes : 0) + h.str_len;
  if (!base)
    out.strings = std::string(strings);
  Reader r(types, strings, base, pointer_size, out);
  return r.run(error);
}

} // namespace stap::debuginfo
