// The lexer: Boost.Spirit X3 at the character level. Each token class is a
// small X3 parser tried at the current position; operators come from an
// x3::symbols table, whose ternary search tree gives the longest match
// (`<<<` before `<<` before `<`).
#include "parse/lexer.h"

#include <boost/spirit/home/x3.hpp>
#include <boost/spirit/home/x3/binary.hpp>

#include <functional>

namespace stap::parse {
namespace x3 = boost::spirit::x3;

namespace {

using Iter = std::string_view::const_iterator;

struct OperatorTable : x3::symbols<int> {
  OperatorTable() {
    for (const char *op :
         {"<<<", "<<=", ">>=", ">>>", "<<", ">>", "<=", ">=", "==", "!=", "=~",
          "!~", "&&", "||", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=",
          "^=", "|=", ".=", "->", "%(", "%?", "%:", "%)", "+", "-", "*", "/",
          "%", "<", ">", "=", "!", "~", "&", "|", "^", "?", ":", ";", ",", ".",
          "(", ")", "[", "]", "{", "}"})
      add(op, 0);
  }
};
const OperatorTable operators;

// Character classes are spelled as ASCII sets: X3's alpha/alnum call the C
// classification functions, which must not see bytes above 127 (UTF-8 in a
// script is legal in comments and strings).
const auto letter = x3::char_("a-zA-Z_");
const auto digit = x3::char_("0-9");
const auto any_byte = x3::byte_;
// ident_char = [A-Za-z0-9_$]
const auto ident_char = x3::char_("a-zA-Z0-9_$");
// identifier = [A-Za-z_$] ident_char*
const auto identifier = x3::raw[x3::char_("a-zA-Z_$") >> *ident_char];
// number = digit ident_char*   (validated afterwards: 12abc is one bad number)
const auto number = x3::raw[digit >> *ident_char];
// script_arg = ('$' | '@') (digit+ | '#')
const auto script_arg = x3::raw[x3::char_("$@") >> (+digit | x3::char_('#'))];
// at_ident = '@' letter ident_char*
const auto at_ident = x3::raw[x3::char_('@') >> letter >> *ident_char];
// line_comment = ('#' | '//') (any - eol)*
const auto line_comment = (x3::lit('#') | "//") >> *(any_byte - x3::eol);
// block_comment = '/*' (any - '*/')* '*/'
const auto block_comment = "/*" >> *(any_byte - "*/") >> "*/";
// embedded = '%{' (any - '%}')* '%}'
const auto embedded = "%{" >> x3::raw[*(any_byte - "%}")] >> "%}";

// Parses a validated number spelling; false if it is malformed or does not
// fit in 64 bits. Values above INT64_MAX wrap, as SystemTap's do.
bool number_value(std::string_view s, int64_t &out) {
  unsigned base = 10;
  size_t i = 0;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    base = 16, i = 2;
  else if (s.size() > 1 && s[0] == '0')
    base = 8, i = 1;
  uint64_t v = 0;
  for (; i < s.size(); ++i) {
    char c = s[i];
    unsigned d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else return false;
    if (d >= base) return false;
    if (v > (UINT64_MAX - d) / base) return false;
    v = v * base + d;
  }
  out = static_cast<int64_t>(v);
  return true;
}

// C escapes: the common ones become their character, octal and hex give
// bytes; an unknown escape (`\.` in a regular expression) keeps its
// backslash, so the regex compiler sees what the user wrote.
void append_unescaped(std::string &out, std::string_view raw) {
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c != '\\' || i + 1 == raw.size()) {
      out += c;
      continue;
    }
    char e = raw[++i];
    switch (e) {
    case 'n': out += '\n'; break;
    case 't': out += '\t'; break;
    case 'r': out += '\r'; break;
    case 'a': out += '\a'; break;
    case 'b': out += '\b'; break;
    case 'f': out += '\f'; break;
    case 'v': out += '\v'; break;
    case '\\': out += '\\'; break;
    case '"': out += '"'; break;
    case '\'': out += '\''; break;
    case '?': out += '?'; break;
    case '\n': break; // line continuation
    case 'x': {
      unsigned v = 0, n = 0;
      while (i + 1 < raw.size() && n < 2 && std::isxdigit(static_cast<unsigned char>(raw[i + 1]))) {
        char h = raw[++i];
        v = v * 16 + (std::isdigit(static_cast<unsigned char>(h)) ? h - '0' : (std::tolower(h) - 'a' + 10));
        ++n;
      }
      if (n == 0) { out += "\\x"; break; }
      out += static_cast<char>(v);
      break;
    }
    default:
      if (e >= '0' && e <= '7') {
        unsigned v = e - '0', n = 1;
        while (i + 1 < raw.size() && n < 3 && raw[i + 1] >= '0' && raw[i + 1] <= '7')
          v = v * 8 + (raw[++i] - '0'), ++n;
        out += static_cast<char>(v);
      } else {
        out += '\\';
        out += e;
      }
    }
  }
}

class Lexer {
public:
  Lexer(std::string_view text, std::function<SourceLoc(size_t)> loc_of, Diagnostics &diag)
      : text_(text), loc_of_(std::move(loc_of)), diag_(diag) {}

  TokenList run() {
    TokenList out;
    Iter it = text_.begin(), end = text_.end();
    while (true) {
      bool space = skip_space(it, end);
      if (it == end)
        break;
      Token t;
      t.space_before = space || out.empty();
      t.loc = loc_of_(static_cast<size_t>(it - text_.begin()));
      if (lex_one(it, end, t))
        out.push_back(std::move(t));
    }
    Token e;
    e.kind = TokKind::End;
    e.loc = loc_of_(text_.size());
    out.push_back(std::move(e));
    return out;
  }

private:
  // Skips whitespace and comments; true if anything was skipped.
  bool skip_space(Iter &it, Iter end) {
    Iter start = it;
    while (it != end) {
      if (std::isspace(static_cast<unsigned char>(*it))) {
        ++it;
        continue;
      }
      if (x3::parse(it, end, line_comment) || x3::parse(it, end, block_comment))
        continue;
      if (end - it >= 2 && it[0] == '/' && it[1] == '*') {
        diag_.error(loc_of_(it - text_.begin()), "unterminated comment");
        it = end;
      }
      break;
    }
    return it != start;
  }

  bool lex_one(Iter &it, Iter end, Token &t) {
    Iter start = it;
    std::string range;

    if (*it == '"')
      return lex_string(it, end, t);
    if (end - it >= 2 && it[0] == '%' && it[1] == '{') {
      if (x3::parse(it, end, embedded, range)) {
        t.kind = TokKind::Embedded;
        t.text = std::move(range);
        return true;
      }
      diag_.error(t.loc, "unterminated embedded code (missing '%}')");
      it = end;
      return false;
    }
    if (x3::parse(it, end, script_arg, range)) {
      t.kind = TokKind::ScriptArg;
      t.text = std::move(range);
      return true;
    }
    if (x3::parse(it, end, at_ident, range)) {
      t.kind = TokKind::AtIdent;
      t.text = std::move(range);
      return true;
    }
    if (x3::parse(it, end, identifier, range)) {
      t.kind = TokKind::Ident;
      t.text = std::move(range);
      return true;
    }
    if (x3::parse(it, end, number, range)) {
      t.kind = TokKind::Number;
      t.text = std::move(range);
      if (!number_value(t.text, t.number))
        diag_.error(t.loc, "invalid number '" + t.text + "'" +
                               (t.text.size() > 18 ? " (does not fit in 64 bits)" : ""));
      return true;
    }
    if (x3::parse(it, end, operators)) {
      t.kind = TokKind::Op;
      t.text.assign(start, it);
      return true;
    }
    unsigned char c = static_cast<unsigned char>(*it);
    if (c >= 0x20 && c < 0x7f) {
      diag_.error(t.loc, "unexpected character '" + std::string(1, *it) + "'");
      ++it;
    } else {
      // A run of non-ASCII or control bytes is one error.
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", c);
      diag_.error(t.loc, std::string("unexpected byte ") + hex + " outside a string or comment");
      while (it != end && (static_cast<unsigned char>(*it) >= 0x7f ||
                           (static_cast<unsigned char>(*it) < 0x20 && !std::isspace(static_cast<unsigned char>(*it)))))
        ++it;
    }
    return false;
  }

  // string = '"' ( '\' any | any - '"' )* '"'
  bool lex_string(Iter &it, Iter end, Token &t) {
    Iter p = it + 1;
    while (p != end && *p != '"') {
      if (*p == '\\' && p + 1 != end)
        ++p;
      ++p;
    }
    if (p == end) {
      diag_.error(t.loc, "unterminated string literal");
      it = end;
      return false;
    }
    t.kind = TokKind::String;
    append_unescaped(t.text, std::string_view(&*(it + 1), p - it - 1));
    it = p + 1;
    return true;
  }

  std::string_view text_;
  std::function<SourceLoc(size_t)> loc_of_;
  Diagnostics &diag_;
};

} // namespace

TokenList lex(const SourceFile &src, Diagnostics &diag) {
  auto loc_of = [&src](size_t off) {
    auto [line, col] = src.line_col(off);
    return SourceLoc{&src, line, col};
  };
  return Lexer(src.text(), loc_of, diag).run();
}

TokenList lex_fragment(const std::string &text, const SourceLoc &loc, Diagnostics &diag) {
  return Lexer(text, [loc](size_t) { return loc; }, diag).run();
}

std::string quote_string(const std::string &value) {
  std::string s = "\"";
  for (size_t i = 0; i < value.size(); ++i) {
    unsigned char c = value[i];
    switch (c) {
    case '\n': s += "\\n"; break;
    case '\t': s += "\\t"; break;
    case '\r': s += "\\r"; break;
    case '\a': s += "\\a"; break;
    case '\b': s += "\\b"; break;
    case '\f': s += "\\f"; break;
    case '\v': s += "\\v"; break;
    case '"': s += "\\\""; break;
    case '\\': s += "\\\\"; break;
    default:
      if (c < 0x20 || c == 0x7f) {
        // Three octal digits always, so a following digit is not absorbed.
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\%03o", c);
        s += buf;
      } else {
        s += static_cast<char>(c);
      }
    }
  }
  return s + "\"";
}

std::string describe(const Token &t) {
  switch (t.kind) {
  case TokKind::End: return "end of input";
  case TokKind::String: return "string " + quote_string(t.text);
  case TokKind::Embedded: return "embedded code";
  case TokKind::Number: return "number '" + t.text + "'";
  case TokKind::Ident:
    return (is_keyword(t.text) ? "keyword '" : "identifier '") + t.text + "'";
  default: return "'" + t.text + "'";
  }
}

bool is_keyword(std::string_view w) {
  static const char *const words[] = {
      "probe", "global", "function", "if", "else", "for", "foreach", "in",
      "limit", "return", "delete", "while", "break", "continue", "next",
      "try", "catch", "private"};
  for (const char *k : words)
    if (w == k)
      return true;
  return false;
}

} // namespace stap::parse
