// Which parts of the runtime a module is built with (runtime/stp_features.h):
// read off its generated C, so that the runtime object linked into it
// holds only what that C uses (docs/build.md, "Runtime parts").
#pragma once
#include <string>
#include <vector>

namespace stap::build {

// The -D names for `c_source`: "STP_FEATURES", then one STP_FEATURE_X per
// part the C names (a probe kind's table, a runtime function of the part,
// from generated code or embedded C). Parts the runtime needs for another
// part are added by runtime/stp_features.h itself.
std::vector<std::string> runtime_features(const std::string &c_source);

} // namespace stap::build
