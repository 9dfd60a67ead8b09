// SDT markers (sys/sdt.h's STAP_PROBEn, DTRACE_PROBEn) of an ELF object:
// its `.note.stapsdt` notes, and their argument strings ("-4@%edi
// 8@-16(%rbp)") decoded into what the runtime reads at a hit
// (struct stp_sdt_arg in runtime/stp_runtime.h).
#pragma once

#include "symtab/elf_image.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stap::probes {

// One operand, decoded.
struct SdtArg {
  enum Kind { Bad, Const, Reg, Mem } kind = Bad;
  int size = 0;          // bytes; negative: signed; 0: the task's long
  std::string base, index; // pt_regs fields ("di", "bp"), "" for none
  unsigned scale = 1;
  unsigned reg_bytes = 8;  // Reg: width of the named (sub-)register
  unsigned shift = 0;      // Reg: %ah and friends
  bool relocate = false;   // Mem: disp holds a symbol's link-time address
  int64_t disp = 0;
  std::string text;        // the operand as the note wrote it
  std::string why;         // Bad: what could not be decoded
};

struct SdtMarker {
  std::string provider, name;
  uint64_t pc = 0;        // link-time address of the marker's nop
  uint64_t semaphore = 0; // link-time address of its semaphore, 0 = none
  std::vector<SdtArg> args;
};

// The markers of `elf` (none when it has no .note.stapsdt), addresses
// adjusted by `.stapsdt.base` as prelink would leave them.
std::vector<SdtMarker> sdt_markers(const symtab::ElfImage &elf);

// Decodes one argument string of a note for a 64-bit (x86_64) or 32-bit
// (i386) object; symbols named by operands are looked up in `elf` (may be
// null: then such operands are Bad).
std::vector<SdtArg> parse_sdt_args(const std::string &args, bool is_64,
                                   const symtab::ElfImage *elf);

} // namespace stap::probes
