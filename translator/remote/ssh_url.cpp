#include "remote/ssh_url.h"

#include <algorithm>
#include <cctype>

namespace stap::remote {
namespace {

// Host names, IPv4 and (bracketed) IPv6 addresses: nothing ssh could read
// as an option or a shell could expand.
bool plain_host(const std::string &h) {
  if (h.empty() || h[0] == '-')
    return false;
  for (char c : h)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_' &&
        c != ':' && c != '%')
      return false;
  return true;
}

bool plain_user(const std::string &u) {
  if (u.empty() || u[0] == '-')
    return false;
  for (char c : u)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_')
      return false;
  return true;
}

} // namespace

bool is_ssh_url(const std::string &url) {
  return url.rfind("ssh://", 0) == 0 || url.find("://") == std::string::npos;
}

std::optional<SshUrl> parse_ssh_url(const std::string &url, std::string &error) {
  SshUrl u;
  u.url = url;
  std::string rest = url.rfind("ssh://", 0) == 0 ? url.substr(6) : url;
  if (!rest.empty() && rest.back() == '/')
    rest.pop_back();
  auto bad = [&](const std::string &why) {
    error = "--remote=" + url + ": " + why + " (expected ssh://[USER@]HOST[:PORT])";
    return std::nullopt;
  };
  size_t at = rest.rfind('@');
  if (at != std::string::npos) {
    u.user = rest.substr(0, at);
    rest = rest.substr(at + 1);
    if (!plain_user(u.user))
      return bad("invalid user name '" + u.user + "'");
  }
  if (!rest.empty() && rest[0] == '[') { // [IPv6]:PORT
    size_t close = rest.find(']');
    if (close == std::string::npos)
      return bad("unclosed '['");
    u.host = rest.substr(1, close - 1);
    rest = rest.substr(close + 1);
    if (!rest.empty() && rest[0] != ':')
      return bad("unexpected text after ']'");
    if (!rest.empty())
      u.port = rest.substr(1);
  } else {
    if (std::count(rest.begin(), rest.end(), ':') > 1)
      return bad("an IPv6 address needs brackets");
    size_t colon = rest.find(':');
    u.host = rest.substr(0, colon);
    if (colon != std::string::npos)
      u.port = rest.substr(colon + 1);
  }
  if (!plain_host(u.host))
    return bad(u.host.empty() ? "no host" : "invalid host '" + u.host + "'");
  if (url.find("://") == std::string::npos && u.port.size())
    return bad("a port needs the ssh:// form");
  if (!u.port.empty()) {
    for (char c : u.port)
      if (!std::isdigit(static_cast<unsigned char>(c)))
        return bad("invalid port '" + u.port + "'");
    if (u.port.size() > 5 || std::stol(u.port) < 1 || std::stol(u.port) > 65535)
      return bad("invalid port '" + u.port + "'");
  }
  return u;
}

} // namespace stap::remote
