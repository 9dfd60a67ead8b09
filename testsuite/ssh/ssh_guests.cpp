#include "ssh_guests.h"

#include "command.h"

#include <arpa/inet.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <netinet/in.h>
#include <stdexcept>
#include <sys/socket.h>
#include <unistd.h>

namespace stap::testing {
namespace {

// A TCP port of 127.0.0.1 that nothing listens on now (qemu takes it).
int free_loopback_port() {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (s < 0 || bind(s, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0 ||
      getsockname(s, reinterpret_cast<sockaddr *>(&a), &len) != 0)
    throw std::runtime_error("no free port on 127.0.0.1");
  close(s);
  return ntohs(a.sin_port);
}

std::string slurp(const std::string &path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

void must(const std::string &cmd) {
  CommandResult r = run_command(cmd, "/");
  if (r.status != 0)
    throw std::runtime_error(cmd + ": " + r.err);
}

} // namespace

SshGuests::SshGuests(const remote::VmTarget &target, int count) {
  char tmpl[] = "/tmp/stap-ssh-test.XXXXXX";
  if (!mkdtemp(tmpl))
    throw std::runtime_error("mkdtemp");
  dir_ = tmpl;
  must("ssh-keygen -q -t ed25519 -N '' -C stap-test-host -f " + dir_ + "/host_key");
  must("ssh-keygen -q -t ed25519 -N '' -C stap-test-client -f " + dir_ + "/client_key");
  must("cp " + dir_ + "/client_key.pub " + dir_ + "/authorized_keys");
  std::ofstream(dir_ + "/sshd_config") << "Port 22\n"
                                          "HostKey " << dir_ << "/host_key\n"
                                          "AuthorizedKeysFile " << dir_ << "/authorized_keys\n"
                                          "PermitRootLogin prohibit-password\n"
                                          "PasswordAuthentication no\n"
                                          "KbdInteractiveAuthentication no\n"
                                          "UsePAM no\n"
                                          "StrictModes no\n"
                                          "UseDNS no\n"
                                          "PidFile /run/sshd.pid\n"
                                          "Subsystem sftp /usr/lib/openssh/sftp-server\n";
  std::string host_pub = slurp(dir_ + "/host_key.pub");
  std::ofstream known(dir_ + "/known_hosts");
  for (int i = 0; i < count; ++i) {
    ports_.push_back(free_loopback_port());
    known << "[127.0.0.1]:" << ports_.back() << " " << host_pub;
  }
  known.close();
  std::ofstream(dir_ + "/ssh_config") << "Host *\n"
                                         "  IdentityFile " << dir_ << "/client_key\n"
                                         "  IdentitiesOnly yes\n"
                                         "  UserKnownHostsFile " << dir_ << "/known_hosts\n"
                                         "  StrictHostKeyChecking yes\n"
                                         "  BatchMode yes\n"
                                         "  ConnectTimeout 20\n"
                                         "  LogLevel ERROR\n";
  // The job: the NIC up at qemu's user-network address, then sshd in the
  // foreground until the test stops it.
  // root's dot files are the host's: an empty home keeps their output out.
  std::string job = "mount -t tmpfs tmpfs /root && modprobe virtio_net && "
                    "busybox ip link set lo up && "
                    "busybox ip addr add 10.0.2.15/24 dev eth0 && "
                    "busybox ip link set eth0 up && mkdir -p -m 755 /run/sshd && "
                    "exec /usr/sbin/sshd -D -e -f " + dir_ + "/sshd_config";
  results_.resize(count);
  for (int i = 0; i < count; ++i)
    threads_.emplace_back([this, i, target, job] {
      remote::VmOptions vo;
      vo.forward_tcp = {{ports_[i], 22}};
      try {
        results_[i] = remote::run_vm_batch(target, {{"sshd", job, {}, 500}}, vo);
      } catch (const remote::VmError &) {
      }
    });
}

SshGuests::~SshGuests() {
  for (size_t i = 0; i < ports_.size(); ++i)
    ssh(i, "kill $(cat /run/sshd.pid)");
  for (auto &t : threads_)
    t.join();
  run_command("rm -rf " + shell_quote(dir_), "/");
}

std::string SshGuests::ssh_env() const {
  return "STAP_SSH_OPTIONS=" + shell_quote("-F " + dir_ + "/ssh_config");
}

int SshGuests::ssh(size_t i, const std::string &command, std::string *out) const {
  CommandResult r = run_command("ssh -F " + dir_ + "/ssh_config -p " + std::to_string(ports_[i]) +
                                    " root@127.0.0.1 " + shell_quote(command),
                                "/");
  if (out)
    *out = r.out + r.err;
  return r.status;
}

bool SshGuests::ready(int timeout_s, std::string &why) {
  auto start = std::chrono::steady_clock::now();
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  for (size_t i = 0; i < ports_.size(); ++i) {
    std::string out;
    while (ssh(i, "true", &out) != 0) {
      if (std::chrono::steady_clock::now() > end) {
        why = "guest " + std::to_string(i) + " does not answer ssh: " + out;
        return false;
      }
      sleep(1);
    }
  }
  std::fprintf(stderr, "ssh reaches the %zu guests after %.1f s\n", ports_.size(),
               std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return true;
}

} // namespace stap::testing
