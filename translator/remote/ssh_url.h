// --remote=ssh://[USER@]HOST[:PORT] (or SystemTap's bare [USER@]HOST): a
// machine reached with the system's OpenSSH client.
#pragma once

#include <optional>
#include <string>

namespace stap::remote {

struct SshUrl {
  std::string url;  // as given
  std::string user; // empty: ssh's default (ssh_config, the local user)
  std::string host; // a name or an address; IPv6 without its brackets
  std::string port; // empty: ssh's default
};

// Is `url` an ssh target rather than qemu://?
bool is_ssh_url(const std::string &url);

// Parses ssh://[USER@]HOST[:PORT] and [USER@]HOST; "[ADDR]" for IPv6.
// On failure returns nothing and sets `error`.
std::optional<SshUrl> parse_ssh_url(const std::string &url, std::string &error);

} // namespace stap::remote
