#include "codegen/regex_c.h"

namespace stap::codegen {

std::string regex_program_c(const lang::RegexProgram &p) {
  static const char *const ops[] = {"STP_RX_CHAR", "STP_RX_ANY",  "STP_RX_CLASS",
                                    "STP_RX_SPLIT", "STP_RX_JMP", "STP_RX_SAVE",
                                    "STP_RX_BOL",  "STP_RX_EOL",  "STP_RX_MATCH"};
  std::string r = "({ static const struct stp_rx_inst _rx_i[] = {";
  for (const lang::RxInst &i : p.inst)
    r += " {" + std::string(ops[static_cast<int>(i.op)]) + ", " + std::to_string(i.ch) + ", " +
         std::to_string(i.x) + ", " + std::to_string(i.y) + "},";
  r += " };";
  std::string classes = "NULL";
  if (!p.classes.empty()) {
    r += " static const unsigned char _rx_c[][32] = {";
    for (const auto &set : p.classes) {
      r += " {";
      for (uint8_t b : set)
        r += std::to_string(b) + ",";
      r += "},";
    }
    r += " };";
    classes = "_rx_c";
  }
  r += " static const struct stp_rx_prog _rx_p = { _rx_i, " + std::to_string(p.inst.size()) +
       ", " + std::to_string(p.nslots()) + ", " + classes + " }; &_rx_p; })";
  return r;
}

} // namespace stap::codegen
