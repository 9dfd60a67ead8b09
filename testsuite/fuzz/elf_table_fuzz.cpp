// libFuzzer target for the `-d` table builder (symtab/): any bytes are an
// ELF object, seeded with real ones (64- and 32-bit, stripped or not) that
// mutation truncates, corrupts and fills with huge counts. Opening it,
// reading its build-id, interpreter, dynamic section and symbols, and
// building its unwind table must not crash or trip a sanitizer. A table the
// builder does give is what a module would carry: the unwinder's own check
// (uw_table_open) must accept it, and packing for the module must round-trip.
#include "symtab/elf_image.h"
#include "symtab/unwind_table.h"

extern "C" {
#include "unwind.h"
#include "uw_pack.h"
}

#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace stap::symtab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string err;
  auto elf = ElfImage::open_memory(std::vector<uint8_t>(data, data + size), err);
  if (!elf)
    return 0;
  (void)elf->build_id();
  (void)elf->interpreter();
  (void)elf->dynamic();
  (void)elf->defined_symbols();
  TableStats stats;
  std::vector<uint8_t> table = build_unwind_table(*elf, err, &stats);
  if (table.empty())
    return 0;
  if (table.size() > 0xffffffffu)
    std::abort();
  struct uw_table t;
  int rc = uw_table_open(&t, table.data(), static_cast<uw_u32>(table.size()));
  if (rc != 0) {
    std::fprintf(stderr, "the builder made a table uw_table_open rejects (%d)\n", rc);
    std::abort();
  }
  std::vector<uint8_t> packed = table;
  uw_u32 len = static_cast<uw_u32>(packed.size());
  std::vector<uint8_t> scratch(uw_pack_scratch_size(packed.data(), len) + 1);
  if (uw_pack(packed.data(), len, scratch.data()) != 0 ||
      uw_unpack(packed.data(), len, scratch.data()) != 0 || packed != table) {
    std::fprintf(stderr, "packing the table does not round-trip\n");
    std::abort();
  }
  return 0;
}
