// -v pass lines in SystemTap's shape:
// "Pass 1: parsed user script ... using 1234virt/567res/89shr/1011data kb, in 10usr/0sys/12real ms."
#pragma once
#include <chrono>
#include <string>
#include <sys/resource.h>

namespace stap {

class PassTimer {
public:
  PassTimer() { reset(); }
  void reset();
  // The " using ... kb, in ... ms." tail for the pass since reset().
  std::string usage() const;

private:
  std::chrono::steady_clock::time_point start_;
  rusage ru_{};
};

} // namespace stap
