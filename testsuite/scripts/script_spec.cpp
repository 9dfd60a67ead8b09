#include "script_spec.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>

namespace stap::testing {

std::vector<std::string> split_lines(const std::string &text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos)
      nl = text.size();
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

std::optional<ScriptSpec> read_script_spec(const std::string &path, std::string &err) {
  std::ifstream in(path);
  if (!in) {
    err = "cannot open " + path;
    return std::nullopt;
  }
  ScriptSpec s;
  s.path = path;
  s.script = path;
  s.name = std::filesystem::path(path).stem().string();
  // Unique across directories: it names the test's module.
  std::string parent = std::filesystem::path(path).parent_path().filename().string();
  s.name = parent + "_" + s.name;
  for (char &ch : s.name)
    if (!std::isalnum(static_cast<unsigned char>(ch)))
      ch = '_';
  std::string line;
  auto directive = [&](const std::string &key, std::string &value) {
    size_t at = line.find("// " + key + ":");
    if (at == std::string::npos)
      return false;
    value = line.substr(at + key.size() + 4);
    if (!value.empty() && value[0] == ' ')
      value.erase(0, 1);
    return true;
  };
  std::string v;
  while (std::getline(in, line)) {
    if (directive("expect-match", v)) {
      s.stdout_matches.push_back(v);
    } else if (directive("script", v)) {
      s.script = (std::filesystem::path(path).parent_path() / v).lexically_normal().string();
    } else if (directive("expect", v)) {
      s.stdout_lines.push_back(v);
    } else if (directive("expect-stderr", v)) {
      s.stderr_lines.push_back(v);
      s.check_stderr = true;
    } else if (directive("status", v)) {
      s.status = std::stoi(v);
    } else if (directive("stap", v)) {
      s.stap_args = v;
    } else if (directive("staprun", v)) {
      s.staprun_args = v;
    } else if (directive("args", v)) {
      s.script_args = v;
    } else if (directive("guest", v)) {
      s.guest_command = v;
    } else if (directive("pass", v)) {
      s.last_pass = std::stoi(v);
    } else if (directive("arch", v)) {
      s.arch = v;
    } else if (directive("cpus", v)) {
      s.cpus = std::stoi(v);
    } else if (directive("kmod", v)) {
      s.kmod = v;
    } else if (directive("program", v)) {
      size_t space = v.find(' ');
      s.programs.push_back({v.substr(0, space), space == std::string::npos ? "" : v.substr(space + 1)});
    }
  }
  return s;
}

std::string substitute_build_dir(const std::string &text, const std::string &dir) {
  static const std::string kWord = "BUILD/";
  std::string out;
  for (size_t i = 0; i < text.size();) {
    bool word_start = i == 0 || !(std::isalnum(static_cast<unsigned char>(text[i - 1])) ||
                                  text[i - 1] == '_');
    if (word_start && text.compare(i, kWord.size(), kWord) == 0) {
      out += dir + "/";
      i += kWord.size();
    } else {
      out += text[i++];
    }
  }
  return out;
}

ScriptSpec with_build_dir(ScriptSpec s, const std::string &dir) {
  s.stap_args = substitute_build_dir(s.stap_args, dir);
  s.staprun_args = substitute_build_dir(s.staprun_args, dir);
  s.guest_command = substitute_build_dir(s.guest_command, dir);
  s.script_args = substitute_build_dir(s.script_args, dir);
  for (auto &p : s.programs)
    p.args = substitute_build_dir(p.args, dir);
  for (auto &l : s.stdout_lines)
    l = substitute_build_dir(l, dir);
  for (auto &l : s.stdout_matches)
    l = substitute_build_dir(l, dir);
  for (auto &l : s.stderr_lines)
    l = substitute_build_dir(l, dir);
  return s;
}

std::vector<std::string> find_scripts(const std::string &dir) {
  std::vector<std::string> out;
  for (const auto &e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".stp")
      out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace stap::testing
