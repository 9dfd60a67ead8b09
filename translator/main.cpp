// stap: the translator's command line entry point.
#include "driver/driver.h"

int main(int argc, char **argv) { return stap::run_stap(argc, argv); }
