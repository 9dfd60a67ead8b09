// POSIX extended regular expressions (the right side of `=~` / `!~`),
// compiled at translate time into a program for the runtime's Pike VM
// (runtime/regex_vm.h). Pass 2 checks a regex with it; pass 3 emits the
// program as static C tables (codegen/regex_c.h).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stap::lang {

// Mirrors struct stp_rx_inst / enum stp_rx_op of runtime/regex_vm.h.
enum class RxOp : uint8_t { Char, Any, Class, Split, Jmp, Save, Bol, Eol, Match };

struct RxInst {
  RxOp op;
  uint8_t ch = 0;
  uint16_t x = 0, y = 0;
};

struct RegexProgram {
  std::vector<RxInst> inst;
  std::vector<std::array<uint8_t, 32>> classes; // byte sets, bit b of byte b/8
  unsigned groups = 0;                          // subexpressions besides the whole match
  unsigned nslots() const { return 2 * (groups + 1); }
  // Ints of matcher workspace (STP_RX_WORKSPACE_INTS).
  size_t workspace_ints() const;
};

// Limits that keep the workspace and the work per byte small.
constexpr unsigned kRegexMaxInstructions = 1000;
constexpr unsigned kRegexMaxGroups = 15;
constexpr unsigned kRegexMaxRepeat = 255;

// Compiles `ere`; on error returns nullopt and a message naming the offset.
std::optional<RegexProgram> compile_regex(std::string_view ere, std::string &err);

} // namespace stap::lang
