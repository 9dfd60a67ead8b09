#include "driver/pass_timer.h"

#include <fstream>
#include <unistd.h>

namespace stap {

void PassTimer::reset() {
  start_ = std::chrono::steady_clock::now();
  getrusage(RUSAGE_SELF, &ru_);
}

static long ms(const timeval &a, const timeval &b) {
  return (b.tv_sec - a.tv_sec) * 1000 + (b.tv_usec - a.tv_usec) / 1000;
}

std::string PassTimer::usage() const {
  rusage now{};
  getrusage(RUSAGE_SELF, &now);
  long real = std::chrono::duration_cast<std::chrono::milliseconds>(
                  std::chrono::steady_clock::now() - start_).count();
  long virt = 0, res = 0, shr = 0, text = 0, lib = 0, data = 0;
  std::ifstream statm("/proc/self/statm");
  statm >> virt >> res >> shr >> text >> lib >> data;
  long kb = sysconf(_SC_PAGESIZE) / 1024;
  return "using " + std::to_string(virt * kb) + "virt/" + std::to_string(res * kb) + "res/" +
         std::to_string(shr * kb) + "shr/" + std::to_string(data * kb) + "data kb, in " +
         std::to_string(ms(ru_.ru_utime, now.ru_utime)) + "usr/" +
         std::to_string(ms(ru_.ru_stime, now.ru_stime)) + "sys/" + std::to_string(real) +
         "real ms.";
}

} // namespace stap
