// `-d PATH` and `--ldd` (driver/user_objects.h, driver/ldd.h,
// driver/user_tables.h): which objects a module carries tables for, under
// which path, found as the target's loader finds them; and the tables.
#include "driver/options.h"
#include "driver/user_objects.h"
#include "driver/user_tables.h"

extern "C" {
#include "unwind.h"
#include "uw_pack.h"
#include "uw_table.h"
}

#include <gtest/gtest.h>

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <random>
#include <sstream>
#include <zlib.h>

using namespace stap;
namespace fs = std::filesystem;

namespace {

std::string run(const std::string &cmd) {
  std::string out;
  FILE *p = popen(cmd.c_str(), "r");
  if (!p)
    return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0)
    out.append(buf, n);
  EXPECT_EQ(pclose(p), 0) << cmd << "\n" << out;
  return out;
}

uint32_t le32(const unsigned char *p) {
  return p[0] | p[1] << 8 | p[2] << 16 | static_cast<uint32_t>(p[3]) << 24;
}

std::string real(const std::string &p) {
  char buf[PATH_MAX];
  return realpath(p.c_str(), buf) ? buf : p;
}

// What the host's own loader loads for `prog` (ldd), canonical paths,
// plus `prog` itself.
std::set<std::string> ldd_of(const std::string &prog) {
  std::set<std::string> out{real(prog)};
  std::istringstream in(run("ldd " + prog));
  std::string line;
  while (std::getline(in, line)) {
    size_t arrow = line.find("=> ");
    std::string path = arrow != std::string::npos ? line.substr(arrow + 3) : line;
    path = path.substr(path.find_first_not_of(" \t"));
    path = path.substr(0, path.find(" ("));
    if (!path.empty() && path[0] == '/')
      out.insert(real(path));
  }
  return out;
}

std::set<std::string> paths_of(const std::vector<UserObject> &objs) {
  std::set<std::string> out;
  for (const auto &o : objs)
    out.insert(o.target_path);
  return out;
}

struct Resolved {
  std::vector<UserObject> objects;
  std::string errors;
  unsigned n_errors = 0;
};

Resolved resolve(UserObjectRequest req, const Sysroot &sysroot = Sysroot()) {
  std::ostringstream err;
  Diagnostics diag(err);
  Resolved r;
  r.objects = resolve_user_objects(req, sysroot, diag);
  r.errors = err.str();
  r.n_errors = diag.errors();
  return r;
}

std::optional<Options> parse(std::vector<std::string> args, std::string *help = nullptr) {
  args.insert(args.begin(), "stap");
  std::vector<char *> argv;
  for (auto &a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  bool exit_now = false;
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  auto o = parse_options(static_cast<int>(args.size()), argv.data(), exit_now);
  std::string out = testing::internal::GetCapturedStdout();
  testing::internal::GetCapturedStderr();
  if (help)
    *help = out;
  return o;
}

// A scratch directory, removed afterwards.
class Scratch : public ::testing::Test {
protected:
  void SetUp() override {
    char templ[] = "/tmp/user-objects-test-XXXXXX";
    dir_ = mkdtemp(templ);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string &rel, const std::string &text) {
    fs::create_directories(fs::path(dir_ + "/" + rel).parent_path());
    std::ofstream(dir_ + "/" + rel) << text;
  }
  void cc(const std::string &args) { run("cc " + args + " 2>&1"); }
  std::string dir_;
};

} // namespace

TEST(UserObjectOptions, DIsRepeatableAndLddIsAFlag) {
  auto o = parse({"-d", "/bin/ls", "-d", "kernel", "--ldd", "-dext4", "-e", "probe begin {}"});
  ASSERT_TRUE(o);
  EXPECT_EQ(o->d_objects, (std::vector<std::string>{"/bin/ls", "kernel", "ext4"}));
  EXPECT_TRUE(o->ldd);
  EXPECT_FALSE(parse({"-e", "probe begin {}"})->ldd);
  EXPECT_FALSE(parse({"-d", "", "-e", "probe begin {}"}));
  EXPECT_FALSE(parse({"-e", "probe begin {}", "-d"}));
}

TEST(UserObjectOptions, HelpListsThem) {
  std::string help;
  parse({"--help"}, &help);
  EXPECT_NE(help.find("-d OBJECT"), std::string::npos) << help;
  EXPECT_NE(help.find("--ldd"), std::string::npos) << help;
}

TEST(UserObjects, KernelAndModuleNamesAddNothing) {
  UserObjectRequest req{{"kernel", "ext4_no_such_file_here"}, true, "", "x86_64"};
  EXPECT_FALSE(wants_user_objects(req));
  Resolved r = resolve(req);
  EXPECT_EQ(r.n_errors, 0u) << r.errors;
  EXPECT_TRUE(r.objects.empty());
}

TEST(UserObjects, PathIsCanonicalAsTheKernelNamesIt) {
  Resolved r = resolve({{"/bin/ls"}, false, "", "x86_64"});
  ASSERT_EQ(r.n_errors, 0u) << r.errors;
  ASSERT_EQ(r.objects.size(), 1u);
  EXPECT_EQ(r.objects[0].target_path, real("/bin/ls"));
  EXPECT_TRUE(r.objects[0].is_64);
}

TEST(UserObjects, LddFindsWhatTheHostLoaderLoads64) {
  Resolved r = resolve({{"/bin/ls"}, true, "", "x86_64"});
  ASSERT_EQ(r.n_errors, 0u) << r.errors;
  EXPECT_EQ(paths_of(r.objects), ldd_of("/bin/ls"));
  EXPECT_EQ(r.objects[0].target_path, real("/bin/ls")) << "the -d object comes first";
}

TEST(UserObjects, LddOfACommandsProgram) {
  // -c 'ls -l' with --ldd: ls through the PATH, and its libraries.
  Resolved r = resolve({{}, true, "ls -l /", "x86_64"});
  ASSERT_EQ(r.n_errors, 0u) << r.errors;
  EXPECT_EQ(paths_of(r.objects), ldd_of(real("/bin/ls")));
  // Without --ldd, -c adds nothing.
  EXPECT_TRUE(resolve({{}, false, "ls -l /", "x86_64"}).objects.empty());
}

TEST_F(Scratch, LddFindsWhatTheHostLoaderLoads32) {
  write("p.c", "#include <stdio.h>\n#include <math.h>\nint main(int c, char **v)"
               " { printf(\"%f\\n\", sin(c)); return 0; }\n");
  cc("-m32 -O2 -o " + dir_ + "/p32 " + dir_ + "/p.c -lm");
  Resolved r = resolve({{dir_ + "/p32"}, true, "", "i386"});
  ASSERT_EQ(r.n_errors, 0u) << r.errors;
  EXPECT_EQ(paths_of(r.objects), ldd_of(dir_ + "/p32"));
  for (const auto &o : r.objects)
    EXPECT_FALSE(o.is_64) << o.target_path;
  // A 32-bit program runs on x86_64 too.
  EXPECT_EQ(resolve({{dir_ + "/p32"}, true, "", "x86_64"}).n_errors, 0u);
}

// A sysroot of our own: merged /usr with absolute and relative links, the
// host's libc and loader copied in, a program whose libraries are found
// through DT_RUNPATH $ORIGIN and DT_RPATH, and decoys the loader skips.
class FakeSysroot : public Scratch {
protected:
  void SetUp() override {
    Scratch::SetUp();
    root_ = dir_ + "/root";
    const std::string multi = "/usr/lib/x86_64-linux-gnu";
    fs::create_directories(root_ + multi);
    fs::create_directories(root_ + "/usr/lib64");
    fs::create_symlink("usr/lib", root_ + "/lib");
    fs::create_symlink("usr/lib64", root_ + "/lib64");
    fs::copy_file(real("/lib/x86_64-linux-gnu/libc.so.6"), root_ + multi + "/libc.so.6");
    fs::copy_file(real("/lib64/ld-linux-x86-64.so.2"), root_ + multi + "/ld-linux-x86-64.so.2");
    // Absolute, so it must stay inside the sysroot.
    fs::create_symlink("/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
                       root_ + "/usr/lib64/ld-linux-x86-64.so.2");
    write("bar.c", "int bar(int x) { return x * 3; }\n");
    write("foo.c", "int bar(int); int foo(int x) { return bar(x) + 1; }\n");
    write("prog.c", "int foo(int); int main(int c, char **v) { return foo(c); }\n");
    // libbar: needed by libfoo, which has no search path of its own.
    fs::create_directories(root_ + "/opt/app/lib");
    fs::create_directories(root_ + "/opt/app/bin");
    fs::create_directories(root_ + "/opt/rp");
    fs::create_directories(root_ + "/opt/decoy");
    cc("-shared -fPIC -o " + root_ + "/opt/rp/libbar.so " + dir_ + "/bar.c");
    // A 32-bit libbar first in the search path: the loader skips it.
    cc("-m32 -shared -fPIC -o " + root_ + "/opt/decoy/libbar.so " + dir_ + "/bar.c");
    cc("-shared -fPIC -Wl,-soname,libfoo.so.1 -o " + root_ + "/opt/app/lib/libfoo.so.1.2.3 " +
       dir_ + "/foo.c -L" + root_ + "/opt/rp -lbar");
    fs::create_symlink("libfoo.so.1.2.3", root_ + "/opt/app/lib/libfoo.so.1");
    fs::create_symlink("libfoo.so.1", root_ + "/opt/app/lib/libfoo.so");
  }
  // prog linked against libfoo with the given search-path flags.
  void link_prog(const std::string &name, const std::string &flags) {
    cc("-o " + root_ + "/opt/app/bin/" + name + " " + dir_ + "/prog.c -L" + root_ +
       "/opt/app/lib -lfoo -L" + root_ + "/opt/rp -Wl,--allow-shlib-undefined " + flags);
  }
  std::string root_;
};

TEST_F(FakeSysroot, RpathIsInheritedAndOriginExpanded) {
  // DT_RPATH (old tags): $ORIGIN/../lib finds libfoo; libbar, needed by
  // libfoo, is found through the program's RPATH (the decoy is skipped).
  link_prog("prog", "'-Wl,-rpath,$ORIGIN/../lib:/opt/decoy:/opt/rp' -Wl,--disable-new-dtags");
  Resolved r = resolve({{"/opt/app/bin/prog"}, true, "", "x86_64"}, Sysroot::directory(root_));
  ASSERT_EQ(r.n_errors, 0u) << r.errors;
  std::vector<std::string> got;
  for (const auto &o : r.objects)
    got.push_back(o.target_path);
  EXPECT_EQ(got, (std::vector<std::string>{
                     "/opt/app/bin/prog",
                     "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", // PT_INTERP, canonical
                     "/opt/app/lib/libfoo.so.1.2.3",                 // through two links
                     "/usr/lib/x86_64-linux-gnu/libc.so.6",
                     "/opt/rp/libbar.so",
                 }));
  EXPECT_EQ(r.objects[3].host_path, root_ + "/usr/lib/x86_64-linux-gnu/libc.so.6");
}

TEST_F(FakeSysroot, RunpathIsNotInherited) {
  // The same with DT_RUNPATH: libfoo is found, but the loader does not
  // search the program's RUNPATH for libfoo's own libbar.
  link_prog("prog_rp", "'-Wl,-rpath,$ORIGIN/../lib:/opt/rp' -Wl,--enable-new-dtags");
  Resolved r =
      resolve({{"/opt/app/bin/prog_rp"}, true, "", "x86_64"}, Sysroot::directory(root_));
  EXPECT_EQ(r.n_errors, 1u);
  EXPECT_NE(r.errors.find("error: --ldd: 'libbar.so', needed by '/opt/app/lib/libfoo.so.1.2.3', "
                          "not found"),
            std::string::npos)
      << r.errors;
  EXPECT_TRUE(paths_of(r.objects).count("/opt/app/lib/libfoo.so.1.2.3"));
}

TEST_F(Scratch, ErrorsNameTheFileAndTheReason) {
  write("notes.txt", "not an ELF file\n");
  write("obj.c", "int f(void) { return 1; }\n");
  cc("-c -o " + dir_ + "/obj.o " + dir_ + "/obj.c");
  struct Case {
    std::string arg, arch, message;
  } cases[] = {
      {"/nonexistent/prog", "x86_64", "error: -d '/nonexistent/prog': no such file"},
      {dir_, "x86_64", "error: -d '" + dir_ + "': not a regular file"},
      {dir_ + "/notes.txt", "x86_64", "error: -d '" + dir_ + "/notes.txt': not an ELF file"},
      {dir_ + "/obj.o", "x86_64",
       "error: -d '" + dir_ + "/obj.o': not an executable or shared library"},
      {"/bin/ls", "i386", "error: -d '/bin/ls': a 64-bit object cannot run on the i386 target"},
  };
  for (const Case &c : cases) {
    Resolved r = resolve({{c.arg}, false, "", c.arch});
    EXPECT_EQ(r.n_errors, 1u) << c.arg;
    EXPECT_EQ(r.errors, c.message + "\n") << c.arg;
  }
}

TEST_F(Scratch, SeparateDebuginfoAddsItsSymbols) {
  // A library whose static function only .symtab names; stripped, its
  // debuginfo placed where Debian's -dbgsym packages put it.
  write("lib.c", "static int __attribute__((noinline)) hidden_helper(int x) { return x * 7; }\n"
                 "int exported(int x) { return hidden_helper(x) + 1; }\n");
  std::string so = dir_ + "/libdbg.so";
  cc("-O2 -shared -fPIC -Wl,--build-id -o " + so + " " + dir_ + "/lib.c");
  std::string full_symtab = run("nm " + so + " | grep -c hidden_helper");
  ASSERT_EQ(full_symtab, "1\n");
  std::string id = run("readelf -n " + so + " | sed -n 's/.*Build ID: //p'");
  id.erase(id.find_last_not_of("\n") + 1);
  ASSERT_GT(id.size(), 2u);
  std::string debug_root = dir_ + "/debug";
  std::string debug = debug_root + "/.build-id/" + id.substr(0, 2) + "/" + id.substr(2) + ".debug";
  fs::create_directories(fs::path(debug).parent_path());
  run("objcopy --only-keep-debug " + so + " " + debug + " && strip --strip-all " + so);

  auto names_at_hidden = [&](const std::string &root) {
    std::string err;
    UserObject obj{so, so, "-d", true};
    auto t = build_user_table(obj, Sysroot(), err, root);
    EXPECT_TRUE(t) << err;
    if (!t)
      return std::make_pair(std::string("(no table)"), std::string());
    struct uw_table table;
    EXPECT_EQ(uw_table_open(&table, t->blob.data(), static_cast<uw_u32>(t->blob.size())), 0);
    // Every symbol's name, in order.
    std::string names;
    for (uw_u32 i = 0; i < table.sym_count; ++i) {
      const char *name;
      uw_u64 start, size;
      uw_u64 addr = table.addr_base + le32(table.syms + 12 * i);
      if (uw_table_symbol(&table, addr, &name, &start, &size) == 0)
        names += std::string(name) + " ";
    }
    return std::make_pair(names, t->debug_file);
  };
  auto [without, no_file] = names_at_hidden(dir_ + "/no-debug-here");
  EXPECT_EQ(without.find("hidden_helper"), std::string::npos) << without;
  EXPECT_NE(without.find("exported"), std::string::npos) << without;
  EXPECT_EQ(no_file, "");
  auto [with, file] = names_at_hidden(debug_root);
  EXPECT_NE(with.find("hidden_helper"), std::string::npos) << with;
  EXPECT_NE(with.find("exported"), std::string::npos) << with;
  EXPECT_EQ(file, debug);
}

TEST(UserTables, SystemLibraryTableOpensAndNamesItsFunctions) {
  std::string libc = real("/lib/x86_64-linux-gnu/libc.so.6");
  std::string err;
  auto t = build_user_table({libc, libc, "-d", true}, Sysroot(), err);
  ASSERT_TRUE(t) << err;
  struct uw_table table;
  ASSERT_EQ(uw_table_open(&table, t->blob.data(), static_cast<uw_u32>(t->blob.size())), 0);
  EXPECT_GT(t->stats.fdes, 1000u);
  EXPECT_GT(t->stats.symbols, 1000u);
  EXPECT_EQ(t->hash.size(), 32u);
}

// What the runtime does with a module's blob (runtime/task/task_finder.c).
std::vector<uint8_t> unpack_in_module(const std::vector<uint8_t> &packed, size_t raw_len) {
  std::vector<uint8_t> raw(raw_len);
  uLongf len = raw.size();
  EXPECT_EQ(uncompress(raw.data(), &len, packed.data(), packed.size()), Z_OK);
  EXPECT_EQ(len, raw_len);
  std::vector<uint8_t> scratch(uw_pack_scratch_size(raw.data(), static_cast<uw_u32>(raw_len)));
  if (!scratch.empty())
    uw_unpack(raw.data(), static_cast<uw_u32>(raw_len), scratch.data());
  return raw;
}

TEST(UserTables, ModuleCarriesTheTablePackedAndCompressed) {
  // The runtime must get the very table back, for programs and libraries
  // of both classes.
  std::vector<std::string> objects = {"/lib/x86_64-linux-gnu/libc.so.6",
                                      "/lib64/ld-linux-x86-64.so.2", "/bin/ls",
                                      "/lib/i386-linux-gnu/libc.so.6", "/lib/ld-linux.so.2"};
  for (const auto &o : objects) {
    std::string path = real(o), err;
    auto t = build_user_table({path, path, "-d", true}, Sysroot(), err);
    ASSERT_TRUE(t) << path << ": " << err;
    EXPECT_LT(t->packed.size(), t->blob.size() / 2) << path;
    EXPECT_TRUE(unpack_in_module(t->packed, t->blob.size()) == t->blob) << path;
    // Packing alone changes the arrays (else it would gain nothing).
    std::vector<uint8_t> p = t->blob, scratch(uw_pack_scratch_size(p.data(), p.size()));
    ASSERT_EQ(uw_pack(p.data(), static_cast<uw_u32>(p.size()), scratch.data()), 0);
    EXPECT_FALSE(p == t->blob) << path;
  }
}

TEST(UserTables, PackingIsReversibleForAnyBlob) {
  // Hostile blobs: a table header whose arrays lie anywhere (overlapping
  // each other), random bytes, .eh_frame records of any length; and blobs
  // whose header fails the checks, which neither direction touches.
  std::mt19937 rng(11);
  auto u32 = [&](uint32_t max) { return static_cast<uint32_t>(rng() % (max + 1)); };
  for (int round = 0; round < 20000; ++round) {
    uint32_t len = UW_TABLE_HEADER_SIZE + u32(600);
    std::vector<uint8_t> b(len);
    for (auto &x : b)
      x = static_cast<uint8_t>(rng() % 4 == 0 ? rng() : rng() % 24);
    auto put = [&](uint32_t off, uint32_t v) {
      for (int i = 0; i < 4; ++i)
        b[off + i] = static_cast<uint8_t>(v >> (8 * i));
    };
    put(UW_HDR_MAGIC, round % 50 ? UW_TABLE_MAGIC : rng());
    uint32_t body = len - UW_TABLE_HEADER_SIZE;
    uint32_t fdes = u32(body / 8), syms = u32(body / 12);
    put(UW_HDR_FDE_COUNT, round % 37 ? fdes : rng());
    put(UW_HDR_FDE_INDEX, UW_TABLE_HEADER_SIZE + u32(body - fdes * 8) - (round % 41 ? 0 : 4));
    put(UW_HDR_SYM_COUNT, syms);
    put(UW_HDR_SYMS, UW_TABLE_HEADER_SIZE + u32(body - syms * 12));
    uint32_t eh_len = u32(body);
    uint32_t eh_off = UW_TABLE_HEADER_SIZE + u32(body - eh_len);
    put(UW_HDR_EH_FRAME, eh_off);
    put(UW_HDR_EH_FRAME_LEN, eh_len);
    // Records of plausible lengths, CIEs (id 0), back pointers, and the id
    // whose image would be 0 (pos + 1).
    for (uint32_t o = 0; round % 2 && o + 12 <= eh_len;) {
      uint32_t rec = 8 + u32(20), pos = o + 4;
      uint32_t ids[] = {0, pos, pos + 1, u32(pos), static_cast<uint32_t>(rng())};
      put(eh_off + o, std::min(rec, eh_len - o - 4));
      put(eh_off + pos, ids[u32(4)]);
      o += 4 + rec;
    }
    const std::vector<uint8_t> original = b;
    uint32_t n = uw_pack_scratch_size(b.data(), len);
    std::vector<uint8_t> scratch(n ? n : 1);
    int packed = uw_pack(b.data(), len, scratch.data());
    EXPECT_EQ(packed == 0, n != 0);
    if (packed != 0) {
      EXPECT_TRUE(b == original) << "round " << round;
    }
    uw_unpack(b.data(), len, scratch.data());
    ASSERT_TRUE(b == original) << "round " << round;
  }
}

TEST_F(Scratch, TableCacheIsKeyedByTheObjectsContents) {
  write("a.c", "int f(int x) { return x + 1; }\n");
  write("b.c", "int f(int x) { return x + 2; }\nint g(int x) { return x * 5; }\n");
  std::string so = dir_ + "/lib.so", cache = dir_ + "/uwtables";
  cc("-O2 -shared -fPIC -o " + so + " " + dir_ + "/a.c");
  UserObject obj{so, so, "-d", true};
  std::string err;
  auto first = build_user_table(obj, Sysroot(), err, kDefaultDebugRoot, cache);
  ASSERT_TRUE(first) << err;
  EXPECT_FALSE(first->from_cache);
  auto again = build_user_table(obj, Sysroot(), err, kDefaultDebugRoot, cache);
  ASSERT_TRUE(again) << err;
  EXPECT_TRUE(again->from_cache);
  EXPECT_TRUE(again->packed == first->packed);
  EXPECT_EQ(again->hash, first->hash);
  EXPECT_EQ(again->table_bytes, first->table_bytes);
  EXPECT_EQ(again->stats.fdes, first->stats.fdes);
  EXPECT_EQ(again->stats.symbols, first->stats.symbols);
  // The same path with other contents (a rebuilt library) is a miss.
  cc("-O2 -shared -fPIC -o " + so + " " + dir_ + "/b.c");
  auto changed = build_user_table(obj, Sysroot(), err, kDefaultDebugRoot, cache);
  ASSERT_TRUE(changed) << err;
  EXPECT_FALSE(changed->from_cache);
  EXPECT_NE(changed->hash, first->hash);
}
