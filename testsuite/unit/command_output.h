// Runs a shell command for a unit test: its stdout and stderr together,
// and its wait status (-1 when it could not be started).
#pragma once
#include <array>
#include <cstdio>
#include <string>

inline std::string command_output(const std::string &cmd, int &status) {
  std::string out;
  FILE *p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) {
    status = -1;
    return out;
  }
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0)
    out.append(buf.data(), n);
  status = pclose(p);
  return out;
}
