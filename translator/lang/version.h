// The SystemTap language this translator implements: the version scripts
// and tapsets see as `systemtap_v` in `%( ... %)` conditions, unless
// --compatible names an older one.
#pragma once

namespace stap::lang {

inline constexpr char kLanguageVersion[] = "4.8";

} // namespace stap::lang
