#include "dwarf/type_reader.h"

#include "dwarf/debug_file.h"

#include <dwarf.h>

namespace stap::dwarf {

using debuginfo::Kind;
using debuginfo::Member;
using debuginfo::Type;
using debuginfo::TypeId;

namespace {

std::string die_name(Dwarf_Die *die) {
  const char *n = dwarf_diename(die);
  return n ? n : "";
}

uint64_t udata(Dwarf_Die *die, unsigned attr, uint64_t dflt = 0) {
  Dwarf_Attribute a;
  Dwarf_Word w;
  if (!dwarf_attr_integrate(die, attr, &a) || dwarf_formudata(&a, &w) != 0)
    return dflt;
  return w;
}

// The byte offset of a member: DW_AT_data_member_location as a constant
// (what gcc emits for C), or a DW_OP_plus_uconst expression (older DWARF).
uint64_t member_offset(Dwarf_Die *die) {
  Dwarf_Attribute a;
  if (!dwarf_attr(die, DW_AT_data_member_location, &a))
    return 0;
  Dwarf_Word w;
  if (dwarf_formudata(&a, &w) == 0)
    return w;
  Dwarf_Op *ops;
  size_t n;
  if (dwarf_getlocation(&a, &ops, &n) == 0 && n == 1 && ops[0].atom == DW_OP_plus_uconst)
    return ops[0].number;
  return 0;
}

} // namespace

TypeId TypeReader::type_attr(Dwarf_Die *die) {
  Dwarf_Attribute a;
  Dwarf_Die t;
  if (!dwarf_attr_integrate(die, DW_AT_type, &a) || !dwarf_formref_die(&a, &t))
    return debuginfo::void_type;
  return type_of(&t);
}

TypeId TypeReader::type_of(Dwarf_Die *die) {
  auto it = done_.find(dwarf_dieoffset(die));
  if (it != done_.end())
    return it->second;
  return translate(die);
}

TypeId TypeReader::translate(Dwarf_Die *die) {
  Type t;
  t.name = die_name(die);
  t.size = udata(die, DW_AT_byte_size);
  // Entered before its parts are read, so a part that points back (a
  // list's `next`) finds it.
  TypeId id = table_->add(Type{});
  done_[dwarf_dieoffset(die)] = id;
  switch (dwarf_tag(die)) {
  case DW_TAG_base_type: {
    uint64_t enc = udata(die, DW_AT_encoding);
    t.kind = enc == DW_ATE_float ? Kind::Float : enc == DW_ATE_boolean ? Kind::Bool : Kind::Int;
    t.is_signed = enc == DW_ATE_signed || enc == DW_ATE_signed_char;
    break;
  }
  case DW_TAG_enumeration_type: {
    t.kind = Kind::Enum;
    t.is_signed = false;
    Dwarf_Die child;
    if (dwarf_child(die, &child) == 0)
      do {
        if (dwarf_tag(&child) != DW_TAG_enumerator)
          continue;
        Dwarf_Attribute a;
        Dwarf_Sword v = 0;
        if (dwarf_attr(&child, DW_AT_const_value, &a))
          dwarf_formsdata(&a, &v);
        if (v < 0)
          t.is_signed = true;
        t.enumerators.emplace_back(die_name(&child), v);
      } while (dwarf_siblingof(&child, &child) == 0);
    break;
  }
  case DW_TAG_pointer_type:
  case DW_TAG_reference_type:
  case DW_TAG_rvalue_reference_type:
    t.kind = Kind::Pointer;
    t.target = type_attr(die);
    if (!t.size) {
      Dwarf_Die cu;
      uint8_t addr_size = 8;
      if (dwarf_diecu(die, &cu, &addr_size, nullptr))
        t.size = addr_size;
    }
    break;
  case DW_TAG_array_type: {
    // int a[2][3]: subranges outermost first, so build from the last one.
    TypeId elem = type_attr(die);
    std::vector<uint64_t> counts;
    Dwarf_Die child;
    if (dwarf_child(die, &child) == 0)
      do {
        if (dwarf_tag(&child) != DW_TAG_subrange_type)
          continue;
        uint64_t count = udata(&child, DW_AT_count);
        Dwarf_Attribute a;
        Dwarf_Word ub;
        if (!count && dwarf_attr(&child, DW_AT_upper_bound, &a) && dwarf_formudata(&a, &ub) == 0)
          count = ub + 1;
        counts.push_back(count);
      } while (dwarf_siblingof(&child, &child) == 0);
    if (counts.empty())
      counts.push_back(0);
    for (size_t i = counts.size(); i-- > 1;) {
      Type inner;
      inner.kind = Kind::Array;
      inner.target = elem;
      inner.count = counts[i];
      inner.size = counts[i] * (*table_)[elem].size;
      elem = table_->add(std::move(inner));
    }
    t.kind = Kind::Array;
    t.target = elem;
    t.count = counts[0];
    t.size = counts[0] * (*table_)[table_->strip(elem)].size;
    break;
  }
  case DW_TAG_structure_type:
  case DW_TAG_class_type:
  case DW_TAG_union_type:
    t.kind = dwarf_tag(die) == DW_TAG_union_type ? Kind::Union : Kind::Struct;
    t.declaration = dwarf_hasattr(die, DW_AT_declaration);
    fill_members(die, t);
    break;
  case DW_TAG_subroutine_type:
  case DW_TAG_subprogram: {
    t.kind = Kind::Func;
    t.name.clear(); // a prototype; the function's name is not its type's
    t.target = type_attr(die);
    Dwarf_Die child;
    if (dwarf_child(die, &child) == 0)
      do {
        if (dwarf_tag(&child) == DW_TAG_formal_parameter)
          t.members.push_back(Member{die_name(&child), type_attr(&child), 0, 0});
        else if (dwarf_tag(&child) == DW_TAG_unspecified_parameters)
          t.variadic = true;
      } while (dwarf_siblingof(&child, &child) == 0);
    break;
  }
  case DW_TAG_typedef:
    t.kind = Kind::Typedef;
    t.target = type_attr(die);
    t.size = (*table_)[table_->strip(t.target)].size;
    break;
  case DW_TAG_const_type:
  case DW_TAG_volatile_type:
    t.kind = dwarf_tag(die) == DW_TAG_const_type ? Kind::Const : Kind::Volatile;
    t.target = type_attr(die);
    t.size = (*table_)[table_->strip(t.target)].size;
    break;
  default: {
    // restrict, atomic, packed...: the qualified type itself.
    TypeId inner = type_attr(die);
    done_[dwarf_dieoffset(die)] = inner;
    table_->at(id) = (*table_)[inner]; // the placeholder becomes a copy
    return inner;
  }
  }
  table_->at(id) = std::move(t);
  return id;
}

void TypeReader::fill_members(Dwarf_Die *die, Type &t) {
  Dwarf_Die child;
  if (dwarf_child(die, &child) != 0)
    return;
  do {
    if (dwarf_tag(&child) != DW_TAG_member)
      continue;
    Member m;
    m.name = die_name(&child);
    m.type = type_attr(&child);
    m.bit_offset = member_offset(&child) * 8;
    m.bit_size = udata(&child, DW_AT_bit_size);
    if (m.bit_size) {
      Dwarf_Attribute a;
      Dwarf_Word w;
      if (dwarf_attr(&child, DW_AT_data_bit_offset, &a) && dwarf_formudata(&a, &w) == 0) {
        m.bit_offset = w; // DWARF 4+: from the start of the struct
      } else if (dwarf_attr(&child, DW_AT_bit_offset, &a) && dwarf_formudata(&a, &w) == 0) {
        // DWARF 2/3, little-endian: bits from the storage unit's high end.
        uint64_t storage = udata(&child, DW_AT_byte_size, (*table_)[table_->strip(m.type)].size);
        m.bit_offset += storage * 8 - w - m.bit_size;
      }
    }
    t.members.push_back(std::move(m));
  } while (dwarf_siblingof(&child, &child) == 0);
}

std::shared_ptr<debuginfo::TypeTable>
read_all_types(DebugFile &file, std::map<std::string, TypeId> *functions) {
  TypeReader &r = file.types();
  if (!file.dwarf())
    return r.table();
  Dwarf_Off off = 0, next;
  size_t header_size;
  while (dwarf_nextcu(file.dwarf(), off, &next, &header_size, nullptr, nullptr, nullptr) == 0) {
    Dwarf_Die cu, child;
    if (dwarf_offdie(file.dwarf(), off + header_size, &cu) && dwarf_child(&cu, &child) == 0)
      do {
        switch (dwarf_tag(&child)) {
        case DW_TAG_structure_type: case DW_TAG_union_type: case DW_TAG_enumeration_type:
        case DW_TAG_typedef: case DW_TAG_base_type:
          r.type_of(&child);
          break;
        case DW_TAG_subprogram:
          if (functions && dwarf_diename(&child) && !functions->count(dwarf_diename(&child)))
            (*functions)[dwarf_diename(&child)] = r.type_of(&child);
          break;
        default:
          break;
        }
      } while (dwarf_siblingof(&child, &child) == 0);
    off = next;
  }
  return r.table();
}

} // namespace stap::dwarf
