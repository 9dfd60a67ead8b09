#include "codegen/user_objects.h"

namespace stap::codegen {

std::string blob_symbol(size_t i) { return "stp_uobject_blob_" + std::to_string(i); }

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
    inits.push_back(".path = " + c_string_literal(t.target_path) + ", .blob = " +
                    blob_symbol(i) + ", .blob_len = " + std::to_string(t.bytes) +
                    ", .raw_len = " + std::to_string(t.raw_bytes));
  }
  // Writable: the runtime opens each table into it at session start.
  w.emit_struct_array("struct stp_uobject", "stp_uobjects", inits);
  w.set_module_field("uobjects", "stp_uobjects");
  w.set_module_field("n_uobjects", std::to_string(tables.size()));
  w.set_module_field("need_vma_tracker", "true");
}

} // namespace stap::codegen
