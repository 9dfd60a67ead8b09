#include "codegen/global_display.h"

#include "codegen/names.h"


namespace stap::codegen {
namespace {

std::string key_format(const ast::GlobalDecl &g, std::string &args, const std::string &k) {
  std::string fmt;
  for (size_t i = 0; i < g.key_types.size(); ++i) {
    fmt += i ? "," : "";
    bool str = g.key_types[i] == ast::Type::String;
    fmt += str ? "\\\"%s\\\"" : "%lld";
    args += std::string(", ") + (str ? "" : "(long long)") + k + "->k" + std::to_string(i);
  }
  return fmt;
}

// printf format and arguments for a value of type `t` at C expression `v`
// (a pointer for strings and statistics).
std::string value_format(ast::Type t, std::string &args, const std::string &v) {
  if (t == ast::Type::String) {
    args += ", " + v;
    return "=\\\"%s\\\"";
  }
  if (t == ast::Type::Stats) {
    args += ", (long long)" + v + "->count, (long long)" + v + "->min, (long long)" + v +
            "->max, (long long)" + v + "->sum, (long long)(" + v + "->count ? div64_s64(" + v +
            "->sum, " + v + "->count) : 0)";
    return " @count=%lld @min=%lld @max=%lld @sum=%lld @avg=%lld";
  }
  args += ", (long long)*" + v;
  return "=%lld";
}

} // namespace

void emit_global_display(ModuleWriter &w, const std::vector<ast::GlobalDecl *> &globals) {
  if (globals.empty())
    return;
  Emitter &out = w.out();
  out.comment("written-but-never-read globals, printed after the end probes");
  out.open("static void stp_display_globals(struct stp_context *c)");
  for (ast::GlobalDecl *g : globals) {
    std::string name = global_name(*g);
    // Statistics are merged on read, which takes the write lock.
    bool stats = g->type == ast::Type::Stats;
    std::string lock = stats ? "write_" : "read_";
    out.line(lock + "lock(&" + global_lock_name(*g) + ");");
    if (!g->array) {
      std::string args;
      std::string v = "(&" + name + ")";
      if (stats) {
        out.open("");
        out.line("const struct stp_stat *s = stp_stat_var_merge(&" + name + ");");
        v = "s";
      }
      std::string fmt = g->name + value_format(g->type, args, v) + "\\n";
      if (g->type == ast::Type::String)
        args = ", " + name;
      out.line("stp_printf(c, \"" + fmt + "\"" + args + ");");
      if (stats)
        out.close();
    } else {
      out.open("");
      // Arrays of statistics by @count, largest first, as SystemTap 4.8.
      if (stats)
        out.line("unsigned i, n = stp_map_sort_by(c, &" + name + ", 0, -1, -1, 'c', " +
                 c_string_literal(g->name) + ");");
      else
        out.line("unsigned i, n = stp_map_sort(&" + name + ", 0, 0, -1);");
      out.line("struct stp_map_entry **e = stp_map_sorted(&" + name + ");");
      out.open("for (i = 0; i < n; i++)");
      out.line("const " + global_key_struct(*g) + " *k = stp_map_entry_key(e[i]);");
      std::string vtype = g->type == ast::Type::String  ? "const char"
                          : g->type == ast::Type::Stats ? "const struct stp_stat"
                                                        : "const s64";
      out.line(vtype + " *v = stp_map_entry_value(&" + name + ", e[i]);");
      std::string args;
      std::string keys = key_format(*g, args, "k"); // first: it appends to args first
      std::string value = value_format(g->type, args, "v");
      std::string fmt = g->name + "[" + keys + "]" + value + "\\n";
      out.line("stp_printf(c, \"" + fmt + "\"" + args + ");");
      out.close();
      out.close();
    }
    out.line(lock + "unlock(&" + global_lock_name(*g) + ");");
  }
  out.close();
  out.open("static const struct stp_probe stp_probe_display =");
  out.line(".pp = \"end\",");
  out.line(".pn = \"end\",");
  out.line(".type = \"begin_end\",");
  out.line(".func = \"\",");
  out.line(".loc = \"<global display>\",");
  out.line(".handler = stp_display_globals,");
  out.close(";");
  w.set_module_field("display_probe", "&stp_probe_display");
}

} // namespace stap::codegen
