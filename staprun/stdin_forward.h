// input.char / input.line (tapsets/input.stp): when the module has the
// procfs file /proc/systemtap/MODULE/__stdin, staprun forwards what it
// reads on its standard input to it, one byte per write, so that each
// write runs the file's write probe with one character, as in 4.8.
#pragma once
#include <string>

namespace staprun {

class StdinForward {
public:
  // Opens the module's __stdin file if it has one.
  explicit StdinForward(const std::string &module_name);
  ~StdinForward();
  StdinForward(const StdinForward &) = delete;
  StdinForward &operator=(const StdinForward &) = delete;

  // The descriptor to poll for input (standard input), or -1 when there is
  // nothing (more) to forward.
  int fd() const { return file_ < 0 ? -1 : 0; }
  // Reads what is there and writes it on; at end of input or on an error
  // the forwarding ends (fd() is then -1).
  void forward();

private:
  int file_ = -1;
};

} // namespace staprun
