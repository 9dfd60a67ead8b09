// Runs a shell command and returns its standard output (test helper).
#pragma once

#include <array>
#include <cstdio>
#include <string>

inline std::string run_capture(const std::string &cmd, int *status = nullptr) {
  std::string out;
  FILE *p = popen(cmd.c_str(), "r");
  if (!p)
    return out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0)
    out.append(buf.data(), n);
  int st = pclose(p);
  if (status)
    *status = st;
  return out;
}
