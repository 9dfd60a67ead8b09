// C++ exceptions: an exception is thrown and caught across frames (the
// unwinder in libgcc runs), then one escapes a noexcept function so
// std::terminate runs our handler, which makes the system call. The stack
// at getppid crosses libstdc++ and libgcc_s: handler <- std::terminate <-
// personality <- _Unwind_RaiseException <- __cxa_throw <- our frames.
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <unistd.h>

struct Guard {
  int *counter;
  ~Guard() { ++*counter; }
};

__attribute__((noinline)) static void thrower(int depth, int *counter) {
  Guard g{counter};
  if (depth == 0)
    throw std::runtime_error("bottom");
  thrower(depth - 1, counter);
}

__attribute__((noinline)) static void escapes() noexcept(false) {
  throw std::logic_error("escapes");
}

__attribute__((noinline)) static void must_not_throw() noexcept {
  escapes();
}

[[noreturn]] static void on_terminate() {
  getppid();
  std::fflush(stdout);
  _exit(0);
}

int main() {
  int counter = 0;
  try {
    thrower(3, &counter);
  } catch (const std::exception &e) {
    std::printf("caught %s after %d destructors\n", e.what(), counter);
  }
  std::set_terminate(on_terminate);
  must_not_throw();
  return 1;
}
