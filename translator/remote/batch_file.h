// The batch files of `stap-vm --batch FILE`: many jobs for one boot.
//
//   # a comment (whole lines only)
//   timeout 30              before the first job: the default timeout
//   job hello               starts a job named "hello"
//     file ../probe.ko      copied into the job's directory (relative to
//                           the batch file's directory)
//     timeout 10            this job's timeout, in seconds (0: none)
//     run echo hi; exit 3   its sh command line: the rest of the line
//
// Every job needs exactly one `run`.
#pragma once

#include "remote/vm.h"
#include "util/diag.h"
#include "util/source.h"

#include <optional>
#include <vector>

namespace stap::remote {

// The jobs of `file`, or nothing after reporting its errors to `diag`.
std::optional<std::vector<VmJob>> parse_vm_batch(const SourceFile &file, Diagnostics &diag);

} // namespace stap::remote
