#include "codegen/user_objects.h"

namespace stap::codegen {

std::string blob_symbol(size_t i) { return "stp_uobject_blob_" + std::to_string(i); }
std::string lines_symbol(size_t i) { return "stp_uobject_lines_" + std::to_string(i); }

void emit_user_objects(ModuleWriter &w, const std::vector<EmbeddedTable> &tables) {
  if (tables.empty())
    return;
  Emitter &out = w.out();
  out.comment("Unwind tables of user objects (-d, --ldd), in the module's _uobjects.S");
  std::vector<std::string> inits;
  for (size_t i = 0; i < tables.size(); ++i) {
    const EmbeddedTable &t = tables[i];
    out.line("extern const unsigned char " + blob_symbol(i) + "[]; /* zlib, table hash " +
             t.hash + " */");
    std::string init = ".path = " + c_string_literal(t.target_path) + ", .blob = " +
                       blob_symbol(i) + ", .blob_len = " + std::to_string(t.bytes) +
                       ", .raw_len = " + std::to_string(t.raw_bytes);
    if (t.lines_bytes) {
      out.line("extern const unsigned char " + lines_symbol(i) + "[]; /* zlib, line table hash " +
               t.lines_hash + " */");
      init += ", .lines_blob = " + lines_symbol(i) + ", .lines_blob_len = " +
              std::to_string(t.lines_bytes) + ", .lines_raw_len = " +
              std::to_string(t.lines_raw_bytes);
    }
    inits.push_back(init);
  }
  // Writable: the runtime opens each table into it at session start.
  w.emit_struct_array("struct stp_uobject", "stp_uobjects", inits);
  w.set_module_field("uobjects", "stp_uobjects");
  w.set_module_field("n_uobjects", std::to_string(tables.size()));
  w.set_module_field("need_vma_tracker", "true");
}

} // namespace stap::codegen
