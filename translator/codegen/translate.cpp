#include "codegen/translate.h"

#include "codegen/arch_c.h"
#include "codegen/body.h"
#include "codegen/global_display.h"
#include "passes/displayed_globals.h"
#include "codegen/global_use.h"
#include "codegen/module_params.h"
#include "codegen/module_writer.h"
#include "codegen/names.h"
#include "codegen/target_access.h"
#include "ast/visitor.h"

#include <map>
#include <set>

namespace stap::codegen {
namespace {

// `static DEFINE_RWLOCK(g_x_lock); static s64 g_x = 5;`
char type_letter(ast::Type t) {
  return t == ast::Type::String ? 's' : t == ast::Type::Stats ? 'x' : 'n';
}

// Scalars: `static DEFINE_RWLOCK(g_x_lock); static s64 g_x = 5;`
// Arrays: the key struct, `static struct stp_map g_a = {...}`, and their
// set-up and tear-down in init_globals/free_globals.
// `static const struct stp_stat_desc g_x_desc = {...};`: the histogram
// shape and @variance shift check_stats found for statistics global g.
void emit_stat_desc(Emitter &out, const ast::GlobalDecl &g) {
  using Shape = ast::GlobalDecl::StatShape;
  const Shape &s = g.stat;
  std::string hist = "STP_HIST_NONE", buckets = "0";
  if (s.hist == Shape::Log) {
    hist = "STP_HIST_LOG";
    buckets = "STP_HIST_LOG_BUCKETS";
  } else if (s.hist == Shape::Linear) {
    hist = "STP_HIST_LINEAR";
    buckets = std::to_string((s.stop - s.start) / s.interval + 3);
  }
  out.line("static const struct stp_stat_desc " + stat_desc_name(g) + " = { .hist = " + hist +
           ", .start = " + std::to_string(s.start) + "LL, .interval = " +
           std::to_string(s.interval) + "LL, .buckets = " + buckets + ", .variance = " +
           (s.variance ? "true" : "false") + ", .shift = " + std::to_string(s.shift) + " };");
}

void emit_globals(ModuleWriter &w, Program &program, Diagnostics &diag) {
  Emitter &out = w.out();
  std::vector<ast::GlobalDecl *> arrays, stats;
  for (ast::GlobalDecl *g : program.globals) {
    out.line("static DEFINE_RWLOCK(" + global_lock_name(*g) + ");");
    if (g->type == ast::Type::Stats)
      emit_stat_desc(out, *g);
    if (g->array) {
      if (g->key_types.empty() || g->key_types.size() > 9) {
        diag.error(g->loc, "array '" + g->name + "' needs 1 to 9 keys");
        continue;
      }
      out.open(global_key_struct(*g));
      std::string letters;
      for (size_t i = 0; i < g->key_types.size(); ++i) {
        out.line(c_declare(g->key_types[i], "k" + std::to_string(i)) + ";");
        letters += type_letter(g->key_types[i]);
      }
      out.close(";");
      std::string size = "0";
      if (auto *n = dynamic_cast<ast::NumberLit *>(g->size))
        size = std::to_string(n->value);
      out.line("static struct stp_map " + global_name(*g) + " = { .key_types = \"" + letters +
               "\", .value_type = '" + type_letter(g->type) + "', .max_entries = " + size +
               ", .wrap = " + (g->wrap ? "true" : "false") +
               (g->type == ast::Type::Stats ? ", .stat = &" + stat_desc_name(*g) : "") + " };");
      arrays.push_back(g);
      continue;
    }
    if (g->type == ast::Type::Stats) {
      out.line("static struct stp_stat_var " + global_name(*g) + " = { .desc = &" +
               stat_desc_name(*g) + " };");
      stats.push_back(g);
      continue;
    }
    std::string decl = "static " + c_declare(g->type, global_name(*g));
    if (auto *n = dynamic_cast<ast::NumberLit *>(g->init))
      decl += " = " + std::to_string(n->value) + "LL";
    else if (auto *s = dynamic_cast<ast::StringLit *>(g->init))
      decl += " = " + c_string_literal(s->value);
    out.line(decl + ";");
  }
  out.blank();
  if (arrays.empty() && stats.empty())
    return;
  out.open("static int stp_init_globals(void)");
  out.line("int rc = 0;");
  for (ast::GlobalDecl *g : arrays)
    out.line("rc = rc ? rc : stp_map_init(&" + global_name(*g) + ");");
  for (ast::GlobalDecl *g : stats)
    out.line("rc = rc ? rc : stp_stat_var_init(&" + global_name(*g) + ");");
  out.line("return rc;");
  out.close();
  out.open("static void stp_free_globals(void)");
  for (ast::GlobalDecl *g : arrays)
    out.line("stp_map_free(&" + global_name(*g) + ");");
  for (ast::GlobalDecl *g : stats)
    out.line("stp_stat_var_free(&" + global_name(*g) + ");");
  out.close();
  out.blank();
  w.set_module_field("init_globals", "stp_init_globals");
  w.set_module_field("free_globals", "stp_free_globals");
}

// `struct stp_entry_slots`: the @entry values of one kretprobe call, kept
// in its instance data (every return probe's instances have room for all).
void emit_entry_slots(Emitter &out, const Program &program) {
  if (program.entry_slots.empty())
    return;
  out.open("struct stp_entry_slots");
  for (const ast::GlobalDecl *g : program.entry_slots)
    out.line(c_declare(g->type, g->name) + ";");
  out.close(";");
  out.line("#define STP_ENTRY_SLOTS(c) ((struct stp_entry_slots *)(c)->entry_data)");
  out.blank();
}

// File-level `%{ %}` blocks (helper C, #includes) of the user script and
// of every tapset file that contributes a function, in file order.
void emit_file_embeds(Emitter &out, const Program &program) {
  std::set<const SourceFile *> used;
  for (const ast::FunctionDecl *fn : program.functions)
    used.insert(fn->file);
  for (const auto &f : program.files) {
    if (f != program.files.front() && !used.count(f->source.get()))
      continue;
    for (const ast::EmbeddedDecl *e : f->embeds) {
      out.line_directive(e->loc);
      out.raw_line(e->code);
    }
  }
}

// Every probe's and function's body, to `v`.
void visit_bodies(const Program &program, ast::Visitor &v) {
  for (const auto &rp : program.probes)
    if (rp.decl->body)
      rp.decl->body->accept(v);
  for (ast::FunctionDecl *fn : program.functions)
    if (fn->body)
      fn->body->accept(v);
}

// Runtime parts that embedded C asks for with a `/* pragma:NAME */`
// comment, as in SystemTap's tapsets: `pragma:vma` starts the task finder
// and VMA tracker (runtime/task/) for the session. So does a user
// object's @var, which finds where the process loaded the object there.
void emit_runtime_needs(ModuleWriter &w, const Program &program) {
  for (const ast::FunctionDecl *fn : program.functions) {
    auto *code = dynamic_cast<const ast::EmbeddedStmt *>(fn->body);
    if (code && code->code.find("/* pragma:vma */") != std::string::npos) {
      w.set_module_field("need_vma_tracker", "true");
      return;
    }
  }
  struct UserVars : ast::Visitor {
    bool found = false;
    void visit(ast::CastExpr &n) override {
      found = found || (n.kind == ast::CastExpr::Var && n.user);
      Visitor::visit(n);
    }
  } f;
  visit_bodies(program, f);
  if (f.found)
    w.set_module_field("need_vma_tracker", "true");
}

// The largest of `sizes`, each rounded up to 8: the size of a union with a
// char array of each size. (A nested STP_MAX(a, STP_MAX(b, ...)) doubles
// its macro expansion per level: with 22 functions gcc ran out of memory.)
std::string max_of(const std::vector<std::string> &sizes) {
  if (sizes.empty())
    return "0";
  if (sizes.size() == 1)
    return "ALIGN(" + sizes[0] + ", 8)";
  std::string r = "sizeof(union {";
  for (size_t i = 0; i < sizes.size(); ++i)
    r += " char m" + std::to_string(i) + "[ALIGN(" + sizes[i] + ", 8)];";
  return r + " })";
}

// Does `body` read target variables (the C of its handler then depends
// on the probe point's scope)?
bool reads_target(ast::Stmt *body) {
  struct Finder : ast::Visitor {
    bool target = false;
    void visit(ast::TargetExpr &) override { target = true; }
  } f;
  if (body)
    body->accept(f);
  return f.target;
}

bool uses_target_access(const Program &program) {
  struct Finder : ast::Visitor {
    bool found = false;
    void visit(ast::TargetExpr &n) override { found = true; Visitor::visit(n); }
    void visit(ast::CastExpr &n) override { found = true; Visitor::visit(n); }
  } f;
  visit_bodies(program, f);
  return f.found;
}

} // namespace

std::string translate_program(Program &program, Diagnostics &diag,
                              const std::vector<EmbeddedTable> &tables) {
  ModuleWriter w;
  Emitter &out = w.out();
  out.comment("Generated by stap " STAP_VERSION " from " +
              program.files.front()->source->name() + ". Do not edit.");
  out.line("#include \"stp_runtime.h\"");
  if (uses_target_access(program))
    out.line("#include \"stp_target.h\"");
  out.blank();
  if (program.arch)
    emit_arch_tables(out, *program.arch);
  emit_file_embeds(out, program);
  emit_globals(w, program, diag);
  emit_entry_slots(out, program);
  emit_module_params(w, program);

  const std::vector<ast::FunctionDecl *> &functions = program.functions;
  for (ast::FunctionDecl *fn : functions)
    out.line(function_prototype(*fn) + ";");
  if (!functions.empty())
    out.blank();
  std::vector<std::string> function_frames, handler_frames;
  for (ast::FunctionDecl *fn : functions) {
    out.comment("function " + fn->name + " at " + loc_string(fn->loc));
    function_frames.push_back(emit_function(out, *fn, diag));
  }

  // One handler per probe body, shared by its probe points; a body that
  // reads target variables gets one per distinct scope of its points (a
  // wildcard's functions keep `$count` in different places).
  GlobalUseAnalysis globals;
  std::map<std::pair<ast::ProbeDecl *, std::string>, std::string> handlers;
  std::map<ast::ProbeDecl *, bool> scoped;
  for (auto &rp : program.probes) {
    auto [s, first] = scoped.emplace(rp.decl, false);
    if (first)
      s->second = reads_target(rp.decl->body);
    const debuginfo::TargetScope *scope = s->second ? rp.scope.get() : nullptr;
    std::string signature = scope ? scope_signature(*scope) : "";
    auto [it, fresh] = handlers.emplace(std::make_pair(rp.decl, signature),
                                        "probe_" + std::to_string(handlers.size()));
    if (fresh) {
      out.comment("probe " + rp.pp + " at " + loc_string(rp.decl->loc));
      handler_frames.push_back(
          emit_probe_handler(out, it->second, *rp.decl, scope, globals, diag));
    }
    rp.handler = it->second;
  }

  // Each family describes its own probes, in registry order.
  for (const probes::ProbeFamily *family : probes::all_families()) {
    std::vector<const probes::ResolvedProbe *> mine;
    for (const auto &rp : program.probes)
      if (rp.family == family && !rp.entry_part) // entry parts run via their return probe
        mine.push_back(&rp);
    if (!mine.empty())
      family->emit(w, mine);
  }
  emit_global_display(w, displayed_globals(program));
  emit_user_objects(w, tables);
  emit_runtime_needs(w, program);
  // A handler's frame, then up to MAXNESTING nested function frames.
  w.set_module_field("frames_size", max_of(handler_frames) + " + MAXNESTING * " +
                                        max_of(function_frames));
  w.emit_module_desc();
  return out.str();
}

} // namespace stap::codegen
