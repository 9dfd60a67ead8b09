// Where stap finds what it ships beside the binaries: the runtime, the
// tapsets and the VM scripts. Run from the build tree, the source tree's
// copies (compiled-in paths); installed (`cmake --install`, the .deb),
// PREFIX/share/stap/NAME next to PREFIX/bin/stap, so an installed tree can
// move as a whole.
#pragma once
#include <string>

namespace stap {

// The directory of the running executable ("/usr/bin").
std::string self_dir();

// The shipped data directory `name` ("runtime", "tapset", "vm"):
// SELF_DIR/../share/stap/NAME when it exists, else `build_tree_default`.
std::string data_dir(const std::string &name, const std::string &build_tree_default);

} // namespace stap
