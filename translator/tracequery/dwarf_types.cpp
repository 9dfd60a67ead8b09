#include "tracequery/dwarf_types.h"

#include <dwarf.h>

namespace stap::tracequery {
namespace {

using debuginfo::Kind;
using debuginfo::Member;
using debuginfo::Type;
using debuginfo::TypeId;

uint64_t udata(Dwarf_Die *die, unsigned attr, uint64_t fallback = 0) {
  Dwarf_Attribute a;
  Dwarf_Word v;
  if (dwarf_attr_integrate(die, attr, &a) && dwarf_formudata(&a, &v) == 0)
    return v;
  return fallback;
}

bool flag(Dwarf_Die *die, unsigned attr) {
  Dwarf_Attribute a;
  bool v = false;
  return dwarf_attr_integrate(die, attr, &a) && dwarf_formflag(&a, &v) == 0 && v;
}

std::string name_of(Dwarf_Die *die) {
  const char *n = dwarf_diename(die);
  return n ? n : "";
}

// An array dimension's element count from DW_AT_count or DW_AT_upper_bound
// (0: unknown or flexible).
uint64_t subrange_count(Dwarf_Die *sub) {
  Dwarf_Attribute a;
  Dwarf_Word v;
  if (dwarf_attr_integrate(sub, DW_AT_count, &a) && dwarf_formudata(&a, &v) == 0)
    return v;
  if (dwarf_attr_integrate(sub, DW_AT_upper_bound, &a)) {
    Dwarf_Sword s;
    if (dwarf_formsdata(&a, &s) == 0 && s >= 0)
      return static_cast<uint64_t>(s) + 1;
    if (dwarf_formudata(&a, &v) == 0 && v != ~Dwarf_Word(0))
      return v + 1;
  }
  return 0;
}

} // namespace

TypeId DwarfTypeReader::type_of(Dwarf_Die *die) {
  Dwarf_Attribute a;
  Dwarf_Die t;
  if (!dwarf_attr_integrate(die, DW_AT_type, &a) || !dwarf_formref_die(&a, &t))
    return debuginfo::void_type;
  return convert(&t);
}

TypeId DwarfTypeReader::convert(Dwarf_Die *die) {
  Dwarf_Off off = dwarf_dieoffset(die);
  if (auto it = done_.find(off); it != done_.end())
    return it->second;
  int tag = dwarf_tag(die);
  // Qualifiers the model has no kind for are looked through.
  if (tag == DW_TAG_restrict_type || tag == DW_TAG_atomic_type || tag == DW_TAG_immutable_type) {
    TypeId id = type_of(die);
    done_[off] = id;
    return id;
  }
  // The entry exists before its parts are converted, so that a struct that
  // points to itself finds it.
  TypeId id = table_.add(Type{});
  done_[off] = id;
  Type t;
  t.name = name_of(die);
  t.size = udata(die, DW_AT_byte_size);
  switch (tag) {
  case DW_TAG_base_type: {
    uint64_t enc = udata(die, DW_AT_encoding);
    t.kind = enc == DW_ATE_boolean ? Kind::Bool
             : enc == DW_ATE_float ? Kind::Float
                                   : Kind::Int;
    t.is_signed = enc == DW_ATE_signed || enc == DW_ATE_signed_char;
    break;
  }
  case DW_TAG_pointer_type:
  case DW_TAG_reference_type:
  case DW_TAG_rvalue_reference_type:
    t.kind = Kind::Pointer;
    if (!t.size) {
      Dwarf_Die cu;
      uint8_t addr_size = 8;
      if (dwarf_diecu(die, &cu, &addr_size, nullptr))
        t.size = addr_size;
    }
    t.target = type_of(die);
    break;
  case DW_TAG_typedef:
    t.kind = Kind::Typedef;
    t.target = type_of(die);
    break;
  case DW_TAG_const_type:
    t.kind = Kind::Const;
    t.target = type_of(die);
    break;
  case DW_TAG_volatile_type:
    t.kind = Kind::Volatile;
    t.target = type_of(die);
    break;
  case DW_TAG_enumeration_type: {
    t.kind = Kind::Enum;
    t.declaration = flag(die, DW_AT_declaration);
    Dwarf_Die c;
    if (dwarf_child(die, &c) == 0)
      do {
        if (dwarf_tag(&c) != DW_TAG_enumerator)
          continue;
        Dwarf_Attribute a;
        Dwarf_Sword v = 0;
        if (dwarf_attr_integrate(&c, DW_AT_const_value, &a))
          dwarf_formsdata(&a, &v);
        if (v < 0)
          t.is_signed = true;
        t.enumerators.emplace_back(name_of(&c), v);
      } while (dwarf_siblingof(&c, &c) == 0);
    break;
  }
  case DW_TAG_structure_type:
  case DW_TAG_union_type:
  case DW_TAG_class_type: {
    t.kind = tag == DW_TAG_union_type ? Kind::Union : Kind::Struct;
    t.declaration = flag(die, DW_AT_declaration);
    Dwarf_Die c;
    if (dwarf_child(die, &c) == 0)
      do {
        if (dwarf_tag(&c) != DW_TAG_member)
          continue;
        Member m;
        m.name = name_of(&c);
        m.type = type_of(&c);
        Dwarf_Attribute a;
        Dwarf_Word w;
        if (dwarf_attr_integrate(&c, DW_AT_data_member_location, &a) &&
            dwarf_formudata(&a, &w) == 0)
          m.bit_offset = w * 8;
        m.bit_offset += udata(&c, DW_AT_data_bit_offset);
        m.bit_size = static_cast<uint32_t>(udata(&c, DW_AT_bit_size));
        t.members.push_back(std::move(m));
      } while (dwarf_siblingof(&c, &c) == 0);
    break;
  }
  case DW_TAG_array_type: {
    // int a[2][3] is an array of 2 arrays of 3: the dimensions nest from
    // the last one outwards.
    TypeId elem = type_of(die);
    std::vector<uint64_t> dims;
    Dwarf_Die c;
    if (dwarf_child(die, &c) == 0)
      do {
        if (dwarf_tag(&c) == DW_TAG_subrange_type)
          dims.push_back(subrange_count(&c));
      } while (dwarf_siblingof(&c, &c) == 0);
    if (dims.empty())
      dims.push_back(0);
    for (size_t i = dims.size(); i-- > 1;) {
      Type inner;
      inner.kind = Kind::Array;
      inner.target = elem;
      inner.count = dims[i];
      inner.size = dims[i] * table_[elem].size;
      elem = table_.add(std::move(inner));
    }
    t.kind = Kind::Array;
    t.target = elem;
    t.count = dims[0];
    t.size = dims[0] * table_[elem].size;
    t.name.clear();
    break;
  }
  case DW_TAG_subroutine_type: {
    t.kind = Kind::Func;
    t.target = type_of(die);
    Dwarf_Die c;
    if (dwarf_child(die, &c) == 0)
      do {
        if (dwarf_tag(&c) == DW_TAG_formal_parameter)
          t.members.push_back(Member{name_of(&c), type_of(&c), 0, 0});
        else if (dwarf_tag(&c) == DW_TAG_unspecified_parameters)
          t.variadic = true;
      } while (dwarf_siblingof(&c, &c) == 0);
    break;
  }
  default: // unspecified_type and the like: void
    t.kind = Kind::Void;
    t.name = "void";
    break;
  }
  table_.at(id) = std::move(t);
  return id;
}

} // namespace stap::tracequery
