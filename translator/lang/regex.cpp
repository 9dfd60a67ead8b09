#include "lang/regex.h"

#include <cctype>
#include <memory>

namespace stap::lang {
namespace {

// The parsed expression.
struct RxNode {
  enum Kind { Empty, Char, Any, Class, Bol, Eol, Cat, Alt, Repeat, Group } kind = Empty;
  uint8_t ch = 0;
  unsigned cls = 0;                   // Class: index into the program's classes
  unsigned min = 0, max = 0;          // Repeat; max == kUnbounded for no limit
  unsigned group = 0;                 // Group: 1-based
  std::vector<std::unique_ptr<RxNode>> kids;
};
constexpr unsigned kUnbounded = ~0u;
constexpr int kMaxNesting = 100;

class RxParser {
public:
  RxParser(std::string_view re, RegexProgram &prog) : re_(re), prog_(prog) {}

  std::unique_ptr<RxNode> parse(std::string &err) {
    auto n = alternation(0);
    if (n && pos_ < re_.size())
      fail("unmatched ')'");
    if (!error_.empty()) {
      err = error_;
      return nullptr;
    }
    return n;
  }

private:
  void fail(const std::string &msg) {
    if (error_.empty())
      error_ = msg + " at offset " + std::to_string(pos_);
  }
  bool more() const { return pos_ < re_.size() && error_.empty(); }
  char peek() const { return re_[pos_]; }
  static std::unique_ptr<RxNode> node(RxNode::Kind k) {
    auto n = std::make_unique<RxNode>();
    n->kind = k;
    return n;
  }

  std::unique_ptr<RxNode> alternation(int depth) {
    if (depth > kMaxNesting) {
      fail("parentheses nested too deeply");
      return nullptr;
    }
    auto alt = node(RxNode::Alt);
    alt->kids.push_back(branch(depth));
    while (more() && peek() == '|') {
      ++pos_;
      alt->kids.push_back(branch(depth));
    }
    if (alt->kids.size() == 1)
      return std::move(alt->kids[0]);
    return alt;
  }

  std::unique_ptr<RxNode> branch(int depth) {
    auto cat = node(RxNode::Cat);
    while (more() && peek() != '|' && peek() != ')') {
      auto a = atom(depth);
      if (!a)
        return cat;
      cat->kids.push_back(repeats(std::move(a)));
    }
    return cat;
  }

  std::unique_ptr<RxNode> repeats(std::unique_ptr<RxNode> a) {
    while (more()) {
      unsigned lo, hi;
      char c = peek();
      if (c == '*') { lo = 0; hi = kUnbounded; ++pos_; }
      else if (c == '+') { lo = 1; hi = kUnbounded; ++pos_; }
      else if (c == '?') { lo = 0; hi = 1; ++pos_; }
      else if (c == '{') { if (!interval(lo, hi)) return a; }
      else break;
      auto r = node(RxNode::Repeat);
      r->min = lo;
      r->max = hi;
      r->kids.push_back(std::move(a));
      a = std::move(r);
    }
    return a;
  }

  bool number(unsigned &out) {
    if (!more() || !std::isdigit(static_cast<unsigned char>(peek())))
      return false;
    out = 0;
    while (more() && std::isdigit(static_cast<unsigned char>(peek()))) {
      out = out * 10 + (peek() - '0');
      if (out > kRegexMaxRepeat) {
        fail("repetition count above " + std::to_string(kRegexMaxRepeat));
        return false;
      }
      ++pos_;
    }
    return true;
  }

  // {m}, {m,}, {m,n}
  bool interval(unsigned &lo, unsigned &hi) {
    ++pos_;
    if (!number(lo)) {
      fail("invalid repetition '{'");
      return false;
    }
    hi = lo;
    if (more() && peek() == ',') {
      ++pos_;
      hi = kUnbounded;
      if (more() && peek() != '}' && !number(hi)) {
        fail("invalid repetition '{'");
        return false;
      }
    }
    if (!more() || peek() != '}') {
      fail("missing '}'");
      return false;
    }
    ++pos_;
    if (hi < lo) {
      fail("invalid repetition {" + std::to_string(lo) + "," + std::to_string(hi) + "}");
      return false;
    }
    return true;
  }

  std::unique_ptr<RxNode> atom(int depth) {
    char c = peek();
    switch (c) {
    case '(': {
      ++pos_;
      auto g = node(RxNode::Group);
      g->group = ++prog_.groups;
      if (prog_.groups > kRegexMaxGroups) {
        fail("more than " + std::to_string(kRegexMaxGroups) + " subexpressions");
        return nullptr;
      }
      g->kids.push_back(alternation(depth + 1));
      if (!more() || peek() != ')') {
        fail("missing ')'");
        return nullptr;
      }
      ++pos_;
      return g;
    }
    case '*': case '+': case '?':
      fail(std::string("nothing to repeat before '") + c + "'");
      return nullptr;
    case '.': ++pos_; return node(RxNode::Any);
    case '^': ++pos_; return node(RxNode::Bol);
    case '$': ++pos_; return node(RxNode::Eol);
    case '[': ++pos_; return bracket();
    case '\\': {
      ++pos_;
      if (pos_ >= re_.size()) {
        fail("trailing '\\'");
        return nullptr;
      }
      auto n = node(RxNode::Char);
      n->ch = static_cast<uint8_t>(re_[pos_++]);
      return n;
    }
    default: {
      auto n = node(RxNode::Char);
      n->ch = static_cast<uint8_t>(c);
      ++pos_;
      return n;
    }
    }
  }

  static bool in_named_class(const std::string &name, int b, bool &known) {
    known = true;
    if (name == "alpha") return std::isalpha(b);
    if (name == "digit") return std::isdigit(b);
    if (name == "alnum") return std::isalnum(b);
    if (name == "upper") return std::isupper(b);
    if (name == "lower") return std::islower(b);
    if (name == "space") return std::isspace(b);
    if (name == "blank") return b == ' ' || b == '\t';
    if (name == "punct") return std::ispunct(b);
    if (name == "print") return std::isprint(b);
    if (name == "graph") return std::isgraph(b);
    if (name == "cntrl") return std::iscntrl(b);
    if (name == "xdigit") return std::isxdigit(b);
    known = false;
    return false;
  }

  // After '['. Ranges, [:class:], a leading '^' negates, a leading ']' is
  // literal, '-' first or last is literal.
  std::unique_ptr<RxNode> bracket() {
    std::array<uint8_t, 32> set{};
    auto add = [&](int b) { set[b >> 3] |= static_cast<uint8_t>(1u << (b & 7)); };
    bool negate = false, first = true;
    if (pos_ < re_.size() && re_[pos_] == '^') {
      negate = true;
      ++pos_;
    }
    for (;;) {
      if (pos_ >= re_.size()) {
        fail("missing ']'");
        return nullptr;
      }
      char c = re_[pos_];
      if (c == ']' && !first) {
        ++pos_;
        break;
      }
      first = false;
      if (c == '[' && pos_ + 1 < re_.size() && re_[pos_ + 1] == ':') {
        size_t end = re_.find(":]", pos_ + 2);
        if (end == std::string_view::npos) {
          fail("missing ':]'");
          return nullptr;
        }
        std::string name(re_.substr(pos_ + 2, end - pos_ - 2));
        bool known = true;
        for (int b = 1; b < 256; ++b)
          if (b < 128 && in_named_class(name, b, known))
            add(b);
        in_named_class(name, 'a', known);
        if (!known) {
          fail("unknown character class '[:" + name + ":]'");
          return nullptr;
        }
        pos_ = end + 2;
        continue;
      }
      int lo = static_cast<unsigned char>(c);
      ++pos_;
      if (pos_ + 1 < re_.size() && re_[pos_] == '-' && re_[pos_ + 1] != ']') {
        int hi = static_cast<unsigned char>(re_[pos_ + 1]);
        if (hi < lo) {
          fail(std::string("invalid range '") + c + "-" + re_[pos_ + 1] + "'");
          return nullptr;
        }
        pos_ += 2;
        for (int b = lo; b <= hi; ++b)
          add(b);
        continue;
      }
      add(lo);
    }
    if (negate)
      for (auto &byte : set)
        byte = static_cast<uint8_t>(~byte);
    set[0] &= 0xfe; // never the terminating NUL
    auto n = node(RxNode::Class);
    n->cls = static_cast<unsigned>(prog_.classes.size());
    prog_.classes.push_back(set);
    return n;
  }

  std::string_view re_;
  RegexProgram &prog_;
  size_t pos_ = 0;
  std::string error_;
};

// Thompson construction into the Pike VM's instructions.
class RxEmitter {
public:
  explicit RxEmitter(RegexProgram &p) : p_(p) {}
  bool too_big = false;

  size_t emit(RxOp op, unsigned x = 0, unsigned y = 0, uint8_t ch = 0) {
    if (p_.inst.size() >= kRegexMaxInstructions) {
      too_big = true;
      return 0;
    }
    p_.inst.push_back(RxInst{op, ch, static_cast<uint16_t>(x), static_cast<uint16_t>(y)});
    return p_.inst.size() - 1;
  }
  size_t here() const { return p_.inst.size(); }
  void patch_x(size_t at, size_t to) {
    if (!too_big)
      p_.inst[at].x = static_cast<uint16_t>(to);
  }
  void patch_y(size_t at, size_t to) {
    if (!too_big)
      p_.inst[at].y = static_cast<uint16_t>(to);
  }

  void code(const RxNode &n) {
    if (too_big)
      return;
    switch (n.kind) {
    case RxNode::Empty: break;
    case RxNode::Char: emit(RxOp::Char, 0, 0, n.ch); break;
    case RxNode::Any: emit(RxOp::Any); break;
    case RxNode::Class: emit(RxOp::Class, n.cls); break;
    case RxNode::Bol: emit(RxOp::Bol); break;
    case RxNode::Eol: emit(RxOp::Eol); break;
    case RxNode::Cat:
      for (const auto &k : n.kids)
        code(*k);
      break;
    case RxNode::Group:
      emit(RxOp::Save, 2 * n.group);
      code(*n.kids[0]);
      emit(RxOp::Save, 2 * n.group + 1);
      break;
    case RxNode::Alt: {
      // split L1, next; L1: a; jmp end; next: split L2, ...; last alternative
      std::vector<size_t> jumps;
      for (size_t i = 0; i < n.kids.size(); ++i) {
        if (i + 1 < n.kids.size()) {
          size_t split = emit(RxOp::Split);
          patch_x(split, here());
          code(*n.kids[i]);
          jumps.push_back(emit(RxOp::Jmp));
          patch_y(split, here());
        } else {
          code(*n.kids[i]);
        }
      }
      for (size_t j : jumps)
        patch_x(j, here());
      break;
    }
    case RxNode::Repeat: {
      const RxNode &e = *n.kids[0];
      for (unsigned i = 0; i < n.min; ++i)
        code(e);
      if (n.max == kUnbounded) {
        // L: split body, out; body; jmp L
        size_t split = emit(RxOp::Split);
        patch_x(split, here());
        code(e);
        size_t j = emit(RxOp::Jmp);
        patch_x(j, split);
        patch_y(split, here());
      } else {
        // (e(e(e)?)?)? for the optional copies
        std::vector<size_t> splits;
        for (unsigned i = n.min; i < n.max; ++i) {
          size_t split = emit(RxOp::Split);
          patch_x(split, here());
          splits.push_back(split);
          code(e);
        }
        for (size_t s : splits)
          patch_y(s, here());
      }
      break;
    }
    }
  }

private:
  RegexProgram &p_;
};

} // namespace

size_t RegexProgram::workspace_ints() const {
  size_t n = inst.size(), w = 1 + nslots();
  return n + 2 * (1 + n * w) + (2 * n + 1) * w;
}

std::optional<RegexProgram> compile_regex(std::string_view ere, std::string &err) {
  RegexProgram prog;
  RxParser parser(ere, prog);
  auto tree = parser.parse(err);
  if (!tree)
    return std::nullopt;
  RxEmitter e(prog);
  e.emit(RxOp::Save, 0);
  e.code(*tree);
  e.emit(RxOp::Save, 1);
  e.emit(RxOp::Match);
  if (e.too_big) {
    err = "regular expression too large (more than " + std::to_string(kRegexMaxInstructions) +
          " instructions)";
    return std::nullopt;
  }
  return prog;
}

} // namespace stap::lang
