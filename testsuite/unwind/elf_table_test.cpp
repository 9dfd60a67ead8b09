// The kernel runtime's table builder (runtime/task/elf_table.c, which builds
// the vdso's table from the running kernel's image) gives the same bytes as
// translator/symtab's for the same ELF image: the host's 64-bit vdso, a
// 32-bit process's vdso, libc (64 and 32), our shared library. And it
// survives hostile images.
#include "symtab/unwind_table.h"

extern "C" {
#include "elf_table.h"
#include "unwind.h"
}

#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <signal.h>
#include <sstream>
#include <sys/auxv.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using Bytes = std::vector<uint8_t>;

void *host_alloc(void *, unsigned long n) { return std::malloc(n); }
void host_free(void *, void *p) { std::free(p); }

// runtime/task/elf_table.c's table, or the error code.
int runtime_table(const Bytes &img, Bytes &out) {
  stp_et_alloc a = {host_alloc, host_free, nullptr};
  uw_u8 *t = nullptr;
  uw_u32 len = 0;
  int rc = stp_elf_table_build(img.data(), uw_u32(img.size()), &a, &t, &len);
  if (rc == STP_ET_OK) {
    out.assign(t, t + len);
    std::free(t);
  }
  return rc;
}

// translator/symtab's table of the same image (no .debug_frame: the
// runtime's builder does not read it; the vdso images have none).
Bytes translator_table(const Bytes &img) {
  std::string err;
  auto elf = stap::symtab::ElfImage::open_memory(img, err);
  EXPECT_TRUE(elf) << err;
  if (!elf)
    return {};
  stap::symtab::TableOptions opts;
  opts.debug_frame = false;
  Bytes t = stap::symtab::build_unwind_table(*elf, err, nullptr, opts);
  EXPECT_FALSE(t.empty()) << err;
  return t;
}

Bytes read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), {});
}

// The [vdso] mapping of a process, from /proc/PID/maps and /proc/PID/mem.
Bytes vdso_of(pid_t pid) {
  std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
  std::string line;
  while (std::getline(maps, line)) {
    if (line.find("[vdso]") == std::string::npos)
      continue;
    uint64_t start = std::stoull(line, nullptr, 16);
    uint64_t end = std::stoull(line.substr(line.find('-') + 1), nullptr, 16);
    Bytes img(end - start);
    std::ifstream mem("/proc/" + std::to_string(pid) + "/mem", std::ios::binary);
    mem.seekg(std::streamoff(start));
    mem.read(reinterpret_cast<char *>(img.data()), std::streamsize(img.size()));
    return mem ? img : Bytes{};
  }
  return {};
}

// The vdso of a 32-bit program, stopped at its exec.
Bytes vdso_of_32bit_process() {
  pid_t pid = fork();
  if (pid == 0) {
    ptrace(PTRACE_TRACEME, 0, nullptr, nullptr);
    execl(UW_PROGRAM_DIR "/readdir_32", "readdir_32", (char *)nullptr);
    _exit(127);
  }
  int status;
  waitpid(pid, &status, 0);
  Bytes img = WIFSTOPPED(status) ? vdso_of(pid) : Bytes{};
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  return img;
}

void expect_same_table(const Bytes &img, const std::string &what) {
  ASSERT_FALSE(img.empty()) << what;
  Bytes mine;
  ASSERT_EQ(runtime_table(img, mine), STP_ET_OK) << what;
  Bytes theirs = translator_table(img);
  EXPECT_EQ(mine, theirs) << what << ": " << mine.size() << " vs " << theirs.size() << " bytes";
  uw_table t;
  EXPECT_EQ(uw_table_open(&t, mine.data(), uw_u32(mine.size())), 0) << what;
}

TEST(RuntimeElfTable, HostVdso64SameAsTranslator) {
  Bytes img = vdso_of(getpid());
  expect_same_table(img, "64-bit vdso");
  Bytes t;
  ASSERT_EQ(runtime_table(img, t), STP_ET_OK);
  uw_table tab;
  ASSERT_EQ(uw_table_open(&tab, t.data(), uw_u32(t.size())), 0);
  EXPECT_EQ(tab.arch, UW_ARCH_X86_64);
  EXPECT_GT(tab.fde_count, 3u);
  // the vdso's functions, by their .dynsym names
  bool found = false;
  for (uw_u32 i = 0; i < tab.sym_count && !found; ++i) {
    const uw_u8 *e = tab.syms + 12 * i + 8;
    uw_u32 name_off = e[0] | e[1] << 8 | e[2] << 16 | uw_u32(e[3]) << 24;
    found = std::string(tab.strings + name_off) == "__vdso_clock_gettime";
  }
  EXPECT_TRUE(found);
}

TEST(RuntimeElfTable, Vdso32SameAsTranslator) {
  Bytes img = vdso_of_32bit_process();
  expect_same_table(img, "32-bit vdso");
  Bytes t;
  ASSERT_EQ(runtime_table(img, t), STP_ET_OK);
  uw_table tab;
  ASSERT_EQ(uw_table_open(&tab, t.data(), uw_u32(t.size())), 0);
  EXPECT_EQ(tab.arch, UW_ARCH_I386);
}

TEST(RuntimeElfTable, LibrariesSameAsTranslator) {
  for (const char *path : {"/usr/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/i386-linux-gnu/libc.so.6",
                           UW_PROGRAM_DIR "/libuwshared_64.so", UW_PROGRAM_DIR "/libuwshared_32.so",
                           UW_PROGRAM_DIR "/readdir_64"})
    expect_same_table(read_file(path), path);
}

TEST(RuntimeElfTable, RejectsWhatIsNotAnX86Elf) {
  Bytes t;
  EXPECT_EQ(runtime_table(Bytes(100, 0), t), STP_ET_EBADELF);
  EXPECT_EQ(runtime_table(Bytes{0x7f, 'E', 'L', 'F'}, t), STP_ET_EBADELF);
  Bytes img = vdso_of(getpid());
  img[18] = 40; // e_machine: ARM
  EXPECT_EQ(runtime_table(img, t), STP_ET_EBADELF);
}

// Truncated and corrupted images: an error or a table that opens, never a
// bad read (run under the sanitizers by the fuzz build as well).
TEST(RuntimeElfTable, HostileImages) {
  Bytes img = vdso_of(getpid());
  ASSERT_FALSE(img.empty());
  size_t tables = 0;
  for (size_t len = 0; len < img.size(); len += 97) {
    Bytes cut(img.begin(), img.begin() + long(len)), t;
    if (runtime_table(cut, t) == STP_ET_OK) {
      uw_table tab;
      EXPECT_EQ(uw_table_open(&tab, t.data(), uw_u32(t.size())), 0) << len;
      ++tables;
    }
  }
  uint32_t seed = 12345;
  for (int round = 0; round < 2000; ++round) {
    Bytes bad = img, t;
    for (int k = 0; k < 8; ++k) {
      seed = seed * 1103515245 + 12345;
      bad[(seed >> 8) % bad.size()] = uint8_t(seed >> 24);
    }
    if (runtime_table(bad, t) == STP_ET_OK) {
      uw_table tab;
      EXPECT_EQ(uw_table_open(&tab, t.data(), uw_u32(t.size())), 0) << round;
      ++tables;
    }
  }
  EXPECT_GT(tables, 0u);
}

} // namespace
