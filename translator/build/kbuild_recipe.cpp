#include "build/kbuild_recipe.h"

#include <fstream>
#include <map>
#include <sstream>

namespace stap::build {
namespace {

void replace_all(std::string &s, const std::string &from, const std::string &to) {
  for (size_t at = 0; !from.empty() && (at = s.find(from, at)) != std::string::npos;
       at += to.size())
    s.replace(at, from.size(), to);
}

// The command of a Kbuild .cmd file: its first line is `cmd_TARGET := CMD`,
// written for make to read back (`$$` for `$`, `$(pound)` for `#`).
bool read_cmd(const std::string &path, std::string &cmd) {
  std::ifstream in(path);
  std::string line;
  if (!std::getline(in, line) || line.rfind("cmd_", 0) != 0)
    return false;
  size_t at = line.find(" := ");
  if (at == std::string::npos)
    return false;
  cmd = line.substr(at + 4);
  replace_all(cmd, "$$", "\x01");
  replace_all(cmd, "$(pound)", "#");
  replace_all(cmd, "\x01", "$");
  return !cmd.empty();
}

bool is_kbuild_name_define(const std::string &tok) {
  for (const char *p : {"-DKBUILD_BASENAME=", "-DKBUILD_MODNAME=", "-D__KBUILD_MODNAME="})
    if (tok.rfind(p, 0) == 0)
      return true;
  return false;
}

// A compile command cut up: the compile itself as words, what follows it
// (" ; objtool ..."), and the words with_pch() and pch_command() move.
struct Compile {
  std::vector<std::string> words; // without the ones below
  std::vector<std::string> includes, name_defines;
  std::string rest; // from the first ';' on, or ""
};

Compile split_compile(const std::string &cmd) {
  Compile c;
  size_t semi = cmd.find(';');
  std::istringstream in(cmd.substr(0, semi));
  if (semi != std::string::npos)
    c.rest = cmd.substr(semi);
  std::string w;
  while (in >> w) {
    if (w.rfind("-Wp,-MMD,", 0) == 0)
      continue;
    if (w == "-include") {
      std::string file;
      if (in >> file)
        c.includes.push_back(file);
      continue;
    }
    if (is_kbuild_name_define(w)) {
      c.name_defines.push_back(w);
      continue;
    }
    c.words.push_back(w);
  }
  return c;
}

std::string join(const std::vector<std::string> &words) {
  std::string s;
  for (const auto &w : words)
    s += (s.empty() ? "" : " ") + w;
  return s;
}

} // namespace

bool record_recipe(const std::string &dir, const std::string &name, const std::string &ccflags,
                   KbuildRecipe &out, std::string &why) {
  out = {};
  struct Step {
    std::string *field;
    std::string cmd_file;
    bool optional;
  };
  const std::vector<Step> steps = {
      {&out.cc_src, "." + name + "_src.o.cmd", false},
      {&out.as_blobs, "." + name + "_uobjects.o.cmd", true},
      {&out.ld_o, "." + name + ".o.cmd", false},
      {&out.modpost, ".Module.symvers.cmd", false},
      {&out.cc_mod, "." + name + ".mod.o.cmd", false},
      {&out.ld_ko, "." + name + ".ko.cmd", false},
  };
  for (const Step &s : steps) {
    std::string cmd;
    if (!read_cmd(dir + "/" + s.cmd_file, cmd)) {
      if (s.optional)
        continue;
      why = "no command in " + dir + "/" + s.cmd_file;
      return false;
    }
    replace_all(cmd, ccflags, "@CCFLAGS@");
    replace_all(cmd, dir, "@DIR@");
    replace_all(cmd, name, "@NAME@");
    *s.field = cmd;
  }
  if (out.cc_src.find("@CCFLAGS@") == std::string::npos) {
    why = "our ccflags are not on Kbuild's compile line";
    return false;
  }
  out.forced_includes = split_compile(out.cc_mod).includes;
  std::ifstream mod_c(dir + "/" + name + ".mod.c");
  std::string line;
  while (std::getline(mod_c, line) && (line.rfind("#include ", 0) == 0 || line.rfind("#define ", 0) == 0))
    out.mod_c_prelude.push_back(line);
  if (out.mod_c_prelude.empty()) {
    why = "no #include at the start of " + dir + "/" + name + ".mod.c";
    return false;
  }
  return true;
}

std::string recipe_to_text(const KbuildRecipe &r) {
  std::string s;
  auto field = [&](const char *key, const std::string &v) {
    if (!v.empty())
      s += std::string(key) + " " + v + "\n";
  };
  field("cc_src", r.cc_src);
  field("as_blobs", r.as_blobs);
  field("ld_o", r.ld_o);
  field("modpost", r.modpost);
  field("cc_mod", r.cc_mod);
  field("ld_ko", r.ld_ko);
  for (const auto &i : r.forced_includes)
    field("forced_include", i);
  for (const auto &l : r.mod_c_prelude)
    field("mod_c_prelude", l);
  return s;
}

bool recipe_from_text(const std::string &text, KbuildRecipe &out) {
  out = {};
  std::map<std::string, std::string *> fields = {
      {"cc_src", &out.cc_src}, {"as_blobs", &out.as_blobs}, {"ld_o", &out.ld_o},
      {"modpost", &out.modpost}, {"cc_mod", &out.cc_mod},   {"ld_ko", &out.ld_ko}};
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    size_t sp = line.find(' ');
    if (sp == std::string::npos)
      return false;
    std::string key = line.substr(0, sp), value = line.substr(sp + 1);
    if (key == "forced_include")
      out.forced_includes.push_back(value);
    else if (key == "mod_c_prelude")
      out.mod_c_prelude.push_back(value);
    else if (auto it = fields.find(key); it != fields.end())
      *it->second = value;
    else
      return false;
  }
  return !out.cc_src.empty() && !out.ld_o.empty() && !out.modpost.empty() &&
         !out.cc_mod.empty() && !out.ld_ko.empty() && !out.mod_c_prelude.empty();
}

std::string instantiate(const std::string &tmpl, const RecipeValues &v) {
  std::string s = tmpl;
  replace_all(s, "@CCFLAGS@", v.ccflags);
  replace_all(s, "@DIR@", v.dir);
  replace_all(s, "@NAME@", v.name);
  replace_all(s, "@PCH@", v.pch);
  replace_all(s, "@DEFS@", v.defs);
  return s;
}

std::string with_pch(const std::string &compile, std::string &defs) {
  Compile c = split_compile(compile);
  defs.clear();
  for (std::string d : c.name_defines) {
    // -DKBUILD_MODNAME='"@NAME@"' -> #define KBUILD_MODNAME "@NAME@"
    std::string unquoted;
    for (char ch : d)
      if (ch != '\'')
        unquoted += ch;
    size_t eq = unquoted.find('=');
    defs += "#define " + unquoted.substr(2, eq - 2) + " " + unquoted.substr(eq + 1) + "\n";
  }
  c.words.insert(c.words.end(), {"-g0", "-include", "@PCH@", "-include", "@DEFS@"});
  return join(c.words) + (c.rest.empty() ? "" : " " + c.rest);
}

std::string pch_command(const KbuildRecipe &r) {
  Compile c = split_compile(r.cc_mod);
  std::vector<std::string> words;
  for (size_t i = 0; i < c.words.size(); ++i) {
    const std::string &w = c.words[i];
    if (w == "-o") {
      ++i; // and its file
      continue;
    }
    if (w == "-c" || w.find("@NAME@") != std::string::npos)
      continue; // the input file
    words.push_back(w);
  }
  words.insert(words.end(), {"-g0", "-x", "c-header", "-o", "@PCH@.gch", "@PCH@"});
  return join(words);
}

} // namespace stap::build
