// The pass driver behind `stap`: options, then passes 1-5 in order.
#pragma once

namespace stap {
int run_stap(int argc, char **argv);
}
