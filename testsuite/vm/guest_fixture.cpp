#include "guest_fixture.h"

#include <cstdlib>
#include <filesystem>
#include <map>

namespace fs = std::filesystem;

namespace stap::remote::test {

std::optional<VmTarget> target_for(const std::string &arch) { return default_vm_target(arch); }

std::string trouble_module_for(const VmTarget &target) {
  static std::map<std::string, std::string> built;
  if (auto it = built.find(target.release); it != built.end())
    return it->second;
  std::string dir = (fs::temp_directory_path() / ("stap-vm-test-trouble-" + target.release)).string();
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const char *f : {"trouble.c", "Kbuild"})
    fs::copy_file(std::string(STAP_VM_TEST_DATA "/trouble_module/") + f, dir + "/" + f);
  std::string cmd = "make -s -C '" + target.build_dir + "' M='" + dir + "' modules >'" + dir +
                    "/build.log' 2>&1";
  if (std::system(cmd.c_str()) != 0 || !fs::exists(dir + "/trouble.ko")) {
    ADD_FAILURE() << "building trouble.ko for " << target.release << " failed; see " << dir
                  << "/build.log";
    return built[target.release] = "";
  }
  return built[target.release] = dir + "/trouble.ko";
}

std::string uname_machine(const std::string &arch) { return arch == "i386" ? "i686" : arch; }

} // namespace stap::remote::test
