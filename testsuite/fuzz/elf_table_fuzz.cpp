// libFuzzer target for the `-d` table builder (symtab/): any bytes are an
// ELF object, seeded with real ones (64- and 32-bit, stripped or not) that
// mutation truncates, corrupts and fills with huge counts. Opening it,
// reading its build-id, interpreter, dynamic section and symbols, and
// building its unwind table and its line table (libdw reads .debug_line
// from the same bytes) must not crash or trip a sanitizer. A table the
// builder does give is what a module would carry: the unwinder's own check
// (uw_table_open) must accept it, and packing for the module must
// round-trip; a line table must pass the runtime's check (stp_lines_open)
// and answer a lookup.
#include "symtab/elf_image.h"
#include "symtab/line_table.h"
#include "symtab/unwind_table.h"

extern "C" {
#include "../../runtime/task/line_table.h"
#include "unwind.h"
#include "uw_pack.h"
}

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

using namespace stap::symtab;

namespace {

// build_line_table() reads a file (libdw opens it by descriptor): the
// input goes to one file per fuzzing process, in memory where possible.
void check_line_table(const uint8_t *data, size_t size, uint64_t addr_base) {
  static const std::string path =
      (access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp") + std::string("/elf_table_fuzz.") +
      std::to_string(getpid());
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f)
    return;
  bool written = std::fwrite(data, 1, size, f) == size;
  if (std::fclose(f) != 0 || !written)
    return;
  std::string err;
  std::vector<uint8_t> lines = build_line_table(path, addr_base, err);
  if (lines.empty())
    return;
  struct stp_lines t;
  if (lines.size() > 0xffffffffu ||
      stp_lines_open(&t, lines.data(), static_cast<uw_u32>(lines.size())) != 0) {
    std::fprintf(stderr, "the builder made a line table stp_lines_open rejects\n");
    std::abort();
  }
  const char *file = nullptr;
  uw_u32 line = 0;
  if (stp_lines_find(&t, addr_base + 16, &file, &line) && !file) {
    std::fprintf(stderr, "a line was found without its file\n");
    std::abort();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string err;
  auto elf = ElfImage::open_memory(std::vector<uint8_t>(data, data + size), err);
  if (!elf)
    return 0;
  check_line_table(data, size, elf->load_base());
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
