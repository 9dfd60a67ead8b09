// The lexer: Boost.Spirit X3 rules for each token class, applied one token
// at a time so every token gets its own source position.
#include "parse/lexer.h"

#include <boost/spirit/home/x3.hpp>

namespace x3 = boost::spirit::x3;

namespace stap::parse {
namespace {

using It = std::string::const_iterator;

// whitespace | "#..." | "//..." | "/* ... */"
const auto comment = (x3::lit('#') | "//") >> *(x3::char_ - x3::eol) |
                     "/*" >> *(x3::char_ - "*/") >> "*/";
const auto skipper = x3::space | comment;

// identifier := [A-Za-z_$@][A-Za-z0-9_$]*
const auto identifier =
    x3::raw[x3::lexeme[(x3::alpha | x3::char_("_$@")) >> *(x3::alnum | x3::char_("_$"))]];

// number := "0x" hexdigits | digits
const auto hex_digits = x3::raw[x3::no_case["0x"] >> +x3::xdigit];
const auto dec_digits = x3::raw[+x3::digit];

// Operators, longest match first (x3::symbols matches the longest).
struct Operators : x3::symbols<int> {
  Operators() {
    for (const char *op :
         {"<<<", ">>>", "<<=", ">>=", "<<", ">>", "<=", ">=", "==", "!=", "=~", "!~", "&&",
          "||", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", ".=", "->", "%(",
          "%?", "%:", "%)", "+", "-", "*", "/", "%", "&", "|", "^", "~", "!", "<", ">", "=",
          ".", ",", ";", ":", "?", "(", ")", "[", "]", "{", "}", "$", "@"})
      add(op, 0);
  }
} const operators;

class Lexer {
public:
  Lexer(const SourceFile &src, const std::vector<std::string> &args, Diagnostics &diag)
      : src_(src), args_(args), diag_(diag), begin_(src.text().begin()),
        end_(src.text().end()) {}

  std::vector<Token> run() {
    It it = begin_;
    for (;;) {
      It before = it;
      x3::parse(it, end_, *skipper);
      bool space = it != before || it == begin_;
      if (it == end_)
        break;
      if (!next_token(it, space))
        ++it; // an error was reported; skip the character
    }
    Token eof;
    eof.kind = Tok::End;
    eof.loc = loc(end_);
    out_.push_back(eof);
    return std::move(out_);
  }

private:
  SourceLoc loc(It at) const {
    auto [line, col] = src_.line_col(static_cast<size_t>(at - begin_));
    return SourceLoc{&src_, line, col};
  }

  void push(Tok kind, std::string text, It at, bool space, int64_t number = 0) {
    Token t;
    t.kind = kind;
    t.text = std::move(text);
    t.number = number;
    t.loc = loc(at);
    t.space_before = space;
    out_.push_back(std::move(t));
  }

  bool next_token(It &it, bool space) {
    It start = it;
    std::string text;
    if (*it == '"')
      return string_literal(it, space);
    if (it + 1 != end_ && *it == '%' && it[1] == '{')
      return embedded(it, space);
    if ((*it == '$' || *it == '@') && it + 1 != end_ &&
        (std::isdigit(static_cast<unsigned char>(it[1])) || it[1] == '#'))
      return script_arg(it, space);
    if (x3::parse(it, end_, hex_digits, text) || x3::parse(it, end_, dec_digits, text))
      return number(text, start, space);
    if (x3::parse(it, end_, identifier, text)) {
      if (text == "@" || text == "$") // a lone sigil is an operator
        push(Tok::Op, text, start, space);
      else
        push(Tok::Ident, text, start, space);
      return true;
    }
    if (x3::parse(it, end_, x3::raw[operators], text)) {
      push(Tok::Op, text, start, space);
      return true;
    }
    diag_.error(loc(start), std::string("invalid character '") + *start + "'");
    return false;
  }

  bool number(const std::string &text, It at, bool space) {
    // Values up to 2^64-1 are accepted and wrap to negative, as in SystemTap.
    bool hex = text.size() > 2 && (text[1] == 'x' || text[1] == 'X');
    bool octal = !hex && text.size() > 1 && text[0] == '0';
    unsigned base = hex ? 16 : octal ? 8 : 10;
    unsigned __int128 v = 0;
    for (size_t i = hex ? 2 : 0; i < text.size(); ++i) {
      unsigned d = std::isdigit(static_cast<unsigned char>(text[i]))
                       ? unsigned(text[i] - '0')
                       : unsigned(std::tolower(text[i]) - 'a' + 10);
      if (d >= base) {
        diag_.error(loc(at), "invalid digit in number '" + text + "'");
        return true;
      }
      v = v * base + d;
      if (v > UINT64_MAX) {
        diag_.error(loc(at), "number '" + text + "' does not fit in 64 bits");
        return true;
      }
    }
    push(Tok::Number, text, at, space, static_cast<int64_t>(static_cast<uint64_t>(v)));
    return true;
  }

  bool string_literal(It &it, bool space) {
    It start = it++;
    std::string v;
    while (it != end_ && *it != '"' && *it != '\n') {
      char c = *it++;
      if (c != '\\' || it == end_) {
        v += c;
        continue;
      }
      char e = *it++;
      switch (e) {
      case 'n': v += '\n'; break;
      case 't': v += '\t'; break;
      case 'r': v += '\r'; break;
      case 'a': v += '\a'; break;
      case 'b': v += '\b'; break;
      case 'f': v += '\f'; break;
      case 'v': v += '\v'; break;
      case '\\': v += '\\'; break;
      case '"': v += '"'; break;
      case '\n': break; // line continuation
      default:
        if (e >= '0' && e <= '7') {
          int n = e - '0';
          for (int k = 0; k < 2 && it != end_ && *it >= '0' && *it <= '7'; ++k)
            n = n * 8 + (*it++ - '0');
          v += static_cast<char>(n);
        } else {
          v += '\\'; // unknown escapes are kept for the C side, as SystemTap does
          v += e;
        }
      }
    }
    if (it == end_ || *it != '"') {
      diag_.error(loc(start), "unterminated string literal");
      return true;
    }
    ++it;
    push(Tok::String, v, start, space);
    return true;
  }

  bool embedded(It &it, bool space) {
    It start = it;
    it += 2;
    It body = it;
    while (it != end_ && !(*it == '%' && it + 1 != end_ && it[1] == '}'))
      ++it;
    if (it == end_) {
      diag_.error(loc(start), "unterminated embedded C ('%{' without '%}')");
      return true;
    }
    push(Tok::Embedded, std::string(body, it), start, space);
    it += 2;
    return true;
  }

  bool script_arg(It &it, bool space) {
    It start = it;
    char sigil = *it++;
    if (*it == '#') {
      ++it;
      std::string n = std::to_string(args_.size());
      if (sigil == '$')
        push(Tok::Number, n, start, space, static_cast<int64_t>(args_.size()));
      else
        push(Tok::String, n, start, space);
      return true;
    }
    size_t n = 0;
    while (it != end_ && std::isdigit(static_cast<unsigned char>(*it)))
      n = n * 10 + static_cast<size_t>(*it++ - '0');
    if (n == 0 || n > args_.size()) {
      diag_.error(loc(start), std::string("command line argument ") + sigil +
                                  std::to_string(n) + " not given (" +
                                  std::to_string(args_.size()) + " available)");
      return true;
    }
    const std::string &arg = args_[n - 1];
    if (sigil == '@') {
      push(Tok::String, arg, start, space);
      return true;
    }
    // $N: the argument's own tokens, placed where $N stood.
    SourceFile pasted(src_.name(), arg);
    std::vector<Token> toks = Lexer(pasted, {}, diag_).run();
    toks.pop_back(); // End
    for (Token &t : toks) {
      t.loc = loc(start);
      t.space_before = space;
      out_.push_back(std::move(t));
    }
    return true;
  }

  const SourceFile &src_;
  const std::vector<std::string> &args_;
  Diagnostics &diag_;
  It begin_, end_;
  std::vector<Token> out_;
};

} // namespace

std::vector<Token> lex(const SourceFile &src, const std::vector<std::string> &script_args,
                       Diagnostics &diag) {
  return Lexer(src, script_args, diag).run();
}

} // namespace stap::parse
