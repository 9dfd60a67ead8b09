#include "tapsets/search_path.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

namespace fs = std::filesystem;
using namespace stap::tapsets;

TEST(TapsetSearchPath, MostSpecificDirectoryFirst) {
  auto d = search_dirs("/t", "6.1.0-56-amd64", "x86_64");
  std::vector<std::string> want = {
      "/t/linux/6.1.0-56-amd64/x86_64", "/t/linux/6.1.0-56-amd64", "/t/linux/6.1.0/x86_64",
      "/t/linux/6.1.0", "/t/linux/6.1/x86_64", "/t/linux/6.1", "/t/linux/6/x86_64", "/t/linux/6",
      "/t/linux/x86_64", "/t/linux", "/t/6.1.0-56-amd64/x86_64", "/t/6.1.0-56-amd64",
      "/t/6.1.0/x86_64", "/t/6.1.0", "/t/6.1/x86_64", "/t/6.1", "/t/6/x86_64", "/t/6",
      "/t/x86_64", "/t"};
  EXPECT_EQ(d, want);
}

TEST(TapsetSearchPath, SpecificFilesHideGeneralOnesAndMacrosComeFirst) {
  fs::path root = fs::temp_directory_path() / "stap-search-path-test";
  fs::remove_all(root);
  for (auto dir : {root / "linux" / "x86_64", root / "linux", root})
    fs::create_directories(dir);
  for (auto f : {root / "linux" / "x86_64" / "a.stp", root / "linux" / "a.stp",
                 root / "b.stp", root / "m.stpm", root / "README"})
    std::ofstream(f) << "";
  TapsetFiles files = find_tapset_files({{root.string()}, "6.1.0-56-amd64", "x86_64"});
  EXPECT_EQ(files.macro_files, std::vector<std::string>{(root / "m.stpm").string()});
  EXPECT_EQ(files.script_files,
            (std::vector<std::string>{(root / "linux" / "x86_64" / "a.stp").string(),
                                      (root / "b.stp").string()}));
  fs::remove_all(root);
}
