// `stap --remote=qemu://RELEASE`: the whole pipeline, pass 5 in a guest,
// with the guest's output and exit status coming back as if local.
#include "command.h"
#include "remote/vm.h"

#include <gtest/gtest.h>

using namespace stap::testing;

namespace {

CommandResult stap_remote(const std::string &arch, const std::string &args) {
  auto target = stap::remote::default_vm_target(arch);
  if (!target)
    return {"", "no " + arch + " kernel installed", -1};
  return run_command(std::string(STAP_BIN_DIR) + "/stap --remote=qemu://" + target->release +
                         " " + args,
                     "/tmp");
}

class RemoteStap : public ::testing::TestWithParam<std::string> {};

TEST_P(RemoteStap, HelloPrintsAndExitsZero) {
  CommandResult r = stap_remote(
      GetParam(), "-e " + shell_quote("probe begin { printf(\"hello %d\\n\", 42); exit() }"));
  EXPECT_EQ(r.out, "hello 42\n");
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.status, 0);
}

TEST_P(RemoteStap, ErrorsInTheGuestComeBackWithStatusOne) {
  CommandResult r = stap_remote(GetParam(), "-e " + shell_quote("probe begin { print(1/0) }"));
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("ERROR: division by 0 near <input>:1:22"), std::string::npos) << r.err;
  EXPECT_EQ(r.status, 1);
}

// remote_id() and remote_uri(): the host's index among the --remote
// options and its URL, as 4.8's tapset documents them.
TEST_P(RemoteStap, TheScriptKnowsWhichRemoteItRunsOn) {
  auto target = stap::remote::default_vm_target(GetParam());
  ASSERT_TRUE(target);
  CommandResult r = stap_remote(
      GetParam(), "-e " + shell_quote("probe begin { printf(\"%d %s\\n\", remote_id(), "
                                      "remote_uri()); exit() }"));
  EXPECT_EQ(r.out, "0 qemu://" + target->release + "\n");
  EXPECT_EQ(r.status, 0);
}

// A session that never ends by itself is stopped at --remote-timeout: the
// guest sends staprun SIGTERM, so the end probes still run, and stap says
// why it stopped.
TEST_P(RemoteStap, ASessionThatNeverEndsIsStoppedAtTheRemoteTimeout) {
  CommandResult r = stap_remote(
      GetParam(), "--remote-timeout=2 -e " +
                      shell_quote("probe begin { println(\"running\") } "
                                  "probe end { println(\"ended\") }"));
  EXPECT_EQ(r.out, "running\nended\n");
  EXPECT_NE(r.err.find("error: --remote=qemu://"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("the session was stopped at its time limit of 2 s (--remote-timeout;"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.status, 1);
}

INSTANTIATE_TEST_SUITE_P(Arch, RemoteStap, ::testing::Values("x86_64", "i386"));

} // namespace
