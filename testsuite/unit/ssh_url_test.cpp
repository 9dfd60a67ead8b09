// --remote=ssh://[USER@]HOST[:PORT] and SystemTap's bare [USER@]HOST.
#include "remote/ssh_host.h"
#include "remote/ssh_url.h"

#include <gtest/gtest.h>

namespace stap::remote {
namespace {

TEST(SshUrl, TakesUserHostAndPort) {
  std::string err;
  auto u = parse_ssh_url("ssh://root@127.0.0.1:2222", err);
  ASSERT_TRUE(u) << err;
  EXPECT_EQ(u->user, "root");
  EXPECT_EQ(u->host, "127.0.0.1");
  EXPECT_EQ(u->port, "2222");
}

TEST(SshUrl, UserAndPortAreOptional) {
  std::string err;
  auto u = parse_ssh_url("ssh://build-box.example.org", err);
  ASSERT_TRUE(u) << err;
  EXPECT_EQ(u->user, "");
  EXPECT_EQ(u->host, "build-box.example.org");
  EXPECT_EQ(u->port, "");
}

TEST(SshUrl, BareHostsAreSshAsInSystemTap) {
  EXPECT_TRUE(is_ssh_url("alice@box"));
  EXPECT_TRUE(is_ssh_url("ssh://box"));
  EXPECT_FALSE(is_ssh_url("qemu://"));
  std::string err;
  auto u = parse_ssh_url("alice@box", err);
  ASSERT_TRUE(u) << err;
  EXPECT_EQ(u->user, "alice");
  EXPECT_EQ(u->host, "box");
}

TEST(SshUrl, Ipv6NeedsBrackets) {
  std::string err;
  auto u = parse_ssh_url("ssh://[::1]:22", err);
  ASSERT_TRUE(u) << err;
  EXPECT_EQ(u->host, "::1");
  EXPECT_EQ(u->port, "22");
  EXPECT_FALSE(parse_ssh_url("ssh://::1", err));
  EXPECT_NE(err.find("an IPv6 address needs brackets"), std::string::npos) << err;
}

TEST(SshUrl, RefusesWhatSshCouldReadAsAnOption) {
  std::string err;
  EXPECT_FALSE(parse_ssh_url("ssh://-oProxyCommand=x", err));
  EXPECT_EQ(err, "--remote=ssh://-oProxyCommand=x: invalid host '-oProxyCommand=x' "
                 "(expected ssh://[USER@]HOST[:PORT])");
  EXPECT_FALSE(parse_ssh_url("ssh://a b@host", err));
  EXPECT_FALSE(parse_ssh_url("ssh://host:99999", err));
  EXPECT_FALSE(parse_ssh_url("ssh://host:x", err));
  EXPECT_FALSE(parse_ssh_url("ssh://", err));
}

TEST(SshHostArch, FromUnameM) {
  EXPECT_EQ(arch_of_machine("x86_64"), "x86_64");
  EXPECT_EQ(arch_of_machine("i686"), "i386");
  EXPECT_EQ(arch_of_machine("i386"), "i386");
  EXPECT_EQ(arch_of_machine("aarch64"), "");
}

} // namespace
} // namespace stap::remote
