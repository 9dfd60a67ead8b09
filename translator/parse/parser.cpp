// Pass 1: lex, preprocess, then parse declaration by declaration.
//
// Each declaration is one run of the X3 grammar (decl_grammar.cpp). A
// committed error (an expectation failure or a ParseError from a semantic
// action) is reported once, "expected X before Y" at the offending token,
// and parsing resumes at the next top-level keyword, so independent
// mistakes in several declarations are all reported.
#include "parse/parser.h"

#include "parse/grammar.h"
#include "parse/lexer.h"
#include "parse/preprocess.h"

#include <set>
#include <tuple>

namespace stap::parse {
namespace {

bool starts_declaration(const Token &t) {
  return t.kind == TokKind::End ||
         (t.kind == TokKind::Ident && (t.text == "probe" || t.text == "function" ||
                                       t.text == "global" || t.text == "private"));
}

// Skips past the error at `where` to the next token that can start a
// declaration.
TokIter recover(TokIter where, TokIter start) {
  TokIter t = std::max(where, start + 1);
  while (!starts_declaration(*t))
    ++t;
  return t;
}

} // namespace

std::unique_ptr<ast::File> parse_file(std::shared_ptr<SourceFile> src, ast::Arena &arena,
                                      Diagnostics &diag, const ParseOptions &opts) {
  MacroTable local;
  TokenList toks =
      preprocess(lex(*src, diag), opts, local, opts.library_macros.get(), diag);

  auto file = std::make_unique<ast::File>();
  file->source = src;
  ParseState st{arena, diag, *src, src->privileged() || opts.env.guru_mode};
  TokIter first = toks.data(), last = toks.data() + toks.size();
  // A mistake inside a macro body shows up wherever the macro is used:
  // report each (place, message) once.
  std::set<std::tuple<const SourceFile *, uint32_t, uint32_t, std::string>> reported;
  auto report = [&](const Token *at, const std::string &msg) {
    if (reported.emplace(at->loc.file, at->loc.line, at->loc.col, msg).second)
      diag.error(at->loc, msg);
  };
  while (first->kind != TokKind::End) {
    TokIter start = first;
    try {
      if (parse_declaration(first, last, st, *file))
        continue;
      report(first, "expected 'probe', 'function' or 'global' before " + describe(*first));
      first = recover(first, start);
    } catch (const x3::expectation_failure<TokIter> &e) {
      report(e.where(), "expected " + e.which() + " before " + describe(*e.where()));
      first = recover(e.where(), start);
    } catch (const ParseError &e) {
      report(e.where, e.message);
      first = recover(e.where, start);
    }
  }
  return file;
}

void load_macro_file(std::shared_ptr<SourceFile> src, MacroTable &into, Diagnostics &diag,
                     const ParseOptions &opts) {
  into.sources.push_back(src);
  TokenList rest = preprocess(lex(*src, diag), opts, into, nullptr, diag);
  if (rest.front().kind != TokKind::End)
    diag.error(rest.front().loc, "a macro library file may only contain @define, not " +
                                     describe(rest.front()));
}

} // namespace stap::parse
