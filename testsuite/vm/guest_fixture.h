// Shared set-up of the tests that boot guests: which kernels to test on,
// and the trouble.ko test module built for them.
#pragma once

#include "remote/vm.h"

#include <gtest/gtest.h>
#include <string>

namespace stap::remote::test {

// The newest installed kernel of `arch`, or nothing (the test then skips).
std::optional<VmTarget> target_for(const std::string &arch);

// trouble_module/ built with the target's Kbuild, once per run; "" (with a
// test failure) if the build fails.
std::string trouble_module_for(const VmTarget &target);

// The architecture parameter's name as uname -m reports it in the guest.
std::string uname_machine(const std::string &arch);

} // namespace stap::remote::test
