#include "codegen/module_writer.h"

namespace stap::codegen {

std::string ModuleWriter::probe_descriptor(const probes::ResolvedProbe &p) {
  auto it = descriptors_.find(&p);
  if (it != descriptors_.end())
    return it->second;
  std::string name = "stp_probe_" + std::to_string(descriptors_.size());
  out_.open("static const struct stp_probe " + name + " =");
  out_.line(".pp = " + c_string_literal(p.pp) + ",");
  out_.line(".pn = " + c_string_literal(p.pn) + ",");
  out_.line(".func = " + c_string_literal(p.function) + ",");
  out_.line(".loc = " + c_string_literal(loc_string(p.point->loc)) + ",");
  out_.line(".type = " + c_string_literal(std::string(p.family->probe_type(p))) + ",");
  out_.line(".handler = " + p.handler + ",");
  out_.close(";");
  descriptors_.emplace(&p, name);
  return name;
}

void ModuleWriter::emit_pointer_array(const std::string &type, const std::string &name,
                                      const std::vector<std::string> &elems) {
  out_.open("static " + type + " " + name + "[] =");
  for (const auto &e : elems)
    out_.line(e + ",");
  out_.close(";");
}

void ModuleWriter::emit_struct_array(const std::string &type, const std::string &name,
                                     const std::vector<std::string> &initializers) {
  out_.open("static " + type + " " + name + "[] =");
  for (const auto &e : initializers)
    out_.line("{ " + e + " },");
  out_.close(";");
}

void ModuleWriter::emit_probe_table(
    const std::string &kind, const std::string &type,
    const std::vector<const probes::ResolvedProbe *> &probes,
    const std::function<std::string(const probes::ResolvedProbe &)> &more) {
  std::vector<std::string> inits;
  for (const probes::ResolvedProbe *p : probes) {
    std::string init = ".probe = &" + probe_descriptor(*p) + ", " + p->c_fields;
    if (p->entry) // the runtime runs it at function entry, into per-call data
      init += ", .entry = &" + probe_descriptor(*p->entry) +
              ", .entry_data_size = sizeof(struct stp_entry_slots)";
    if (more)
      init += ", " + more(*p);
    inits.push_back(init);
  }
  const std::string array = "stp_kind_" + kind;
  emit_struct_array(type, array, inits);
  kinds_[kind] = "{ " + array + ", " + std::to_string(inits.size()) + " }";
}

void ModuleWriter::set_module_field(const std::string &field, const std::string &value) {
  module_fields_[field] = value;
}

void ModuleWriter::emit_module_desc() {
  out_.blank();
  out_.open("const struct stp_module_desc stp_module =");
  for (const auto &[field, value] : module_fields_)
    out_.line("." + field + " = " + value + ",");
  if (!kinds_.empty()) {
    out_.open(".kinds =");
    for (const auto &[kind, table] : kinds_)
      out_.line("[STP_KIND_" + kind + "] = " + table + ",");
    out_.close(",");
  }
  out_.close(";");
}

} // namespace stap::codegen
