// Qemu guests running the host's sshd, for the --remote=ssh:// tests.
//
// Everything sshd and ssh need is made in a temporary directory under /tmp,
// which the x86_64 guest sees at the same path (its root is the host's,
// read-only): a host key, a client key authorized for root, sshd_config,
// and an ssh_config (known_hosts, the key, BatchMode) that stap's ssh and
// scp read through STAP_SSH_OPTIONS="-F DIR/ssh_config". Each guest
// brings up a virtio NIC on qemu's restricted user network, whose only way
// in is a forwarded port on the host's 127.0.0.1.
#pragma once

#include "remote/vm.h"

#include <string>
#include <thread>
#include <vector>

namespace stap::testing {

class SshGuests {
public:
  // Boots `count` guests of `target` in the background; ready() waits for them.
  SshGuests(const remote::VmTarget &target, int count);
  // Stops each guest's sshd (its job's main process), so the guests power off.
  ~SshGuests();

  // Waits until ssh reaches every guest, up to `timeout_s`; false (with the
  // guests' logs in `why`) if one does not answer.
  bool ready(int timeout_s, std::string &why);
  const std::vector<int> &ports() const { return ports_; }
  std::string url(size_t i) const { return "ssh://root@127.0.0.1:" + std::to_string(ports_[i]); }
  // STAP_SSH_OPTIONS=... for a command line.
  std::string ssh_env() const;
  // Runs `command` on guest i (its status).
  int ssh(size_t i, const std::string &command, std::string *out = nullptr) const;

private:
  std::string dir_;
  std::vector<int> ports_;
  std::vector<remote::VmBatchResult> results_;
  std::vector<std::thread> threads_;
};

} // namespace stap::testing
