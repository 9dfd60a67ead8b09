// BTF into the TypeTable, TypeTable's C spellings, and the kernel's real
// BTF from the installed /boot/vmlinuz (when there is one).
#include "debuginfo/access_path.h"
#include "debuginfo/btf_files.h"
#include "debuginfo/btf_reader.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace stap::debuginfo;

namespace {

// Writes BTF as the kernel lays it out (include/uapi/linux/btf.h).
class BtfWriter {
public:
  BtfWriter() { strings_.push_back('\0'); }
  uint32_t str(const std::string &s) {
    uint32_t off = strings_.size();
    strings_ += s;
    strings_.push_back('\0');
    return off;
  }
  // One type: its name, kind, vlen, kind_flag and size_or_type; returns its id.
  uint32_t type(const std::string &name, uint32_t kind, uint32_t vlen, uint32_t size_or_type,
                bool kflag = false) {
    put(name.empty() ? 0 : str(name));
    put((kind << 24) | vlen | (kflag ? 1u << 31 : 0));
    put(size_or_type);
    return ++count_;
  }
  void put(uint32_t v) { types_.append(reinterpret_cast<const char *>(&v), 4); }
  std::string bytes() const {
    std::string out(24, '\0');
    uint16_t magic = 0xeB9F;
    uint32_t hdr[] = {24, 0, uint32_t(types_.size()), uint32_t(types_.size()),
                      uint32_t(strings_.size())};
    std::memcpy(out.data(), &magic, 2);
    out[2] = 1;
    std::memcpy(out.data() + 4, hdr, sizeof(hdr));
    return out + types_ + strings_;
  }

private:
  std::string types_, strings_;
  uint32_t count_ = 0;
};

// struct file { unsigned int f_flags: 3; unsigned int mode: 5; union { long a; char *name; };
//               const char *path; int v[4]; }; typedef struct file file_t;
// long vfs_read(struct file *file, char *buf, size_t count);
BtfTypes sample(std::string &error) {
  BtfWriter w;
  uint32_t uint = w.type("unsigned int", 1, 0, 4);
  w.put(32);
  uint32_t lng = w.type("long", 1, 0, 8);
  w.put((1u << 24) | 64);
  uint32_t chr = w.type("char", 1, 0, 1);
  w.put((1u << 24) | 8);
  uint32_t chr_p = w.type("", 2, 0, chr);
  uint32_t cchr = w.type("", 10, 0, chr);
  uint32_t cchr_p = w.type("", 2, 0, cchr);
  uint32_t arr = w.type("", 3, 0, 0);
  w.put(uint); // element
  w.put(uint);
  w.put(4);
  uint32_t anon = w.type("", 5, 2, 8);
  w.put(w.str("a")); w.put(lng); w.put(0);
  w.put(w.str("name")); w.put(chr_p); w.put(0);
  uint32_t file = w.type("file", 4, 5, 48, /*kflag: bitfields*/ true);
  w.put(w.str("f_flags")); w.put(uint); w.put((3u << 24) | 0);
  w.put(w.str("mode")); w.put(uint); w.put((5u << 24) | 3);
  w.put(0); w.put(anon); w.put(64);
  w.put(w.str("path")); w.put(cchr_p); w.put(128);
  w.put(w.str("v")); w.put(arr); w.put(192);
  w.type("file_t", 8, 0, file);
  uint32_t file_p = w.type("", 2, 0, file);
  uint32_t size_t_ = w.type("size_t", 8, 0, uint);
  uint32_t proto = w.type("", 13, 3, lng);
  w.put(w.str("file")); w.put(file_p);
  w.put(w.str("buf")); w.put(chr_p);
  w.put(w.str("count")); w.put(size_t_);
  w.type("vfs_read", 12, 1, proto);
  BtfTypes out;
  read_btf(w.bytes(), nullptr, 8, out, error);
  return out;
}

} // namespace

TEST(Btf, TypesKeepTheirIdsNamesAndLayouts) {
  std::string error;
  BtfTypes b = sample(error);
  ASSERT_EQ(error, "");
  const TypeTable &tt = b.types;
  auto file = tt.find("struct file");
  ASSERT_TRUE(file);
  EXPECT_EQ(tt[*file].size, 48u);
  auto mode = tt.member(*file, "mode");
  ASSERT_TRUE(mode);
  EXPECT_EQ(mode->bit_offset, 3u);
  EXPECT_EQ(mode->bit_size, 5u);
  // A member of an anonymous union, its offset added up.
  auto name = tt.member(*file, "name");
  ASSERT_TRUE(name);
  EXPECT_EQ(name->bit_offset, 64u);
  EXPECT_EQ(tt.c_name(name->type), "char *");
  EXPECT_FALSE(tt.member(*file, "nope"));
  auto typedef_id = tt.find("file_t");
  ASSERT_TRUE(typedef_id);
  EXPECT_EQ(tt.strip(*typedef_id), *file);
  ASSERT_TRUE(b.functions.count("vfs_read"));
  const Type &proto = tt[b.functions.at("vfs_read")];
  ASSERT_EQ(proto.kind, Kind::Func);
  ASSERT_EQ(proto.members.size(), 3u);
  EXPECT_EQ(proto.members[2].name, "count");
  EXPECT_EQ(tt.c_name(proto.members[0].type), "struct file *");
  EXPECT_EQ(tt.c_name(proto.members[2].type), "size_t");
  EXPECT_EQ(tt[tt.strip(proto.members[0].type)].size, 8u) << "pointers are a long";
}

TEST(TypeTable, CNamesAndListingNamesSpellDeclarators) {
  std::string error;
  BtfTypes b = sample(error);
  const TypeTable &tt = b.types;
  auto file = *tt.find("struct file");
  auto path = tt.member(file, "path")->type;
  auto v = tt.member(file, "v")->type;
  EXPECT_EQ(tt.c_name(path), "char const *");
  EXPECT_EQ(tt.c_name(v), "unsigned int [4]");
  EXPECT_EQ(tt.c_name(b.functions.at("vfs_read")), "long (struct file *, char *, size_t)");
  // stap -L spells them as SystemTap does.
  EXPECT_EQ(listing_name(tt, path), "char const*");
  const Type &proto = tt[b.functions.at("vfs_read")];
  EXPECT_EQ(listing_name(tt, proto.members[0].type), "struct file*");
  EXPECT_EQ(listing_name(tt, proto.members[2].type), "size_t");
}

TEST(Btf, MalformedDataIsAnErrorNotACrash) {
  std::string error;
  BtfTypes out;
  EXPECT_FALSE(read_btf("short", nullptr, 8, out, error));
  std::string junk(64, '\x01');
  EXPECT_FALSE(read_btf(junk, nullptr, 8, out, error));
  BtfWriter w;
  w.type("x", 4, 3, 8); // a struct that claims three members and has none
  EXPECT_FALSE(read_btf(w.bytes(), nullptr, 8, out, error));
  EXPECT_NE(error.find("truncated"), std::string::npos) << error;
}

TEST(AccessPath, MemberChainsIndexesAndErrors) {
  std::string error;
  BtfTypes b = sample(error);
  const TypeTable &tt = b.types;
  const Type &proto = tt[b.functions.at("vfs_read")];
  TargetVar file{"file", proto.members[0].type, {VarLocation::Value, "c->regs->di", false, ""},
                 true};
  WalkContext ctx{tt, [](stap::ast::Expr *) { return std::string("2"); }, "\"w\""};
  auto start = start_place(file);
  ASSERT_TRUE(start);
  using C = stap::ast::TargetComponent;
  AccessError err;
  auto p = walk(ctx, *start, "$file", {C{C::Member, "mode", nullptr, {}}}, err);
  ASSERT_TRUE(p) << err.message;
  EXPECT_EQ(p->bit_size, 5u);
  EXPECT_EQ(p->bit_offset, 3u);
  EXPECT_EQ(scalar_c(ctx, *p), "stp_tv_bits(c, ((unsigned long)(c->regs->di)), 3, 5, 0, 0, \"w\")");
  p = walk(ctx, *start, "$file", {C{C::Member, "v", nullptr, {}}, C{C::Index, "", nullptr, {}}},
           err);
  ASSERT_TRUE(p) << err.message;
  EXPECT_NE(p->c.find("* 4L"), std::string::npos) << p->c;
  EXPECT_FALSE(walk(ctx, *start, "$file", {C{C::Member, "f_mod", nullptr, {}}}, err));
  EXPECT_NE(err.message.find("unable to find member 'f_mod' for struct file (alternatives: "
                             "f_flags mode a name path v)"),
            std::string::npos)
      << err.message;
  auto whole = walk(ctx, *start, "$file", {}, err);
  // A pointer is a long; the struct behind it is not a value.
  EXPECT_EQ(classify(tt, *whole, "$file", false, "", {}, err), Use::Scalar);
}

// BTF's `__user` type tag (clang-built kernels emit it; GCC's do not): a
// pointer to a tagged type points into user memory, so indexing it reads
// user memory; the tag spells as its target.
TEST(AccessPath, UserTaggedPointersReadUserMemory) {
  BtfWriter w;
  uint32_t chr = w.type("char", 1, 0, 1);
  w.put((1u << 24) | 8);
  uint32_t tag = w.type("user", 18, 0, chr);
  uint32_t chr_p = w.type("", 2, 0, tag);
  BtfTypes b;
  std::string error;
  ASSERT_TRUE(read_btf(w.bytes(), nullptr, 8, b, error)) << error;
  const TypeTable &tt = b.types;
  EXPECT_TRUE(tt.is_user(tag));
  EXPECT_FALSE(tt.is_user(chr));
  EXPECT_EQ(listing_name(tt, chr_p), "char*");
  TargetVar buf{"buf", chr_p, {VarLocation::Value, "c->regs->si", false, ""}, true};
  WalkContext ctx{tt, [](stap::ast::Expr *) { return std::string("1"); }, "\"w\""};
  using C = stap::ast::TargetComponent;
  AccessError err;
  auto p = walk(ctx, *start_place(buf), "$buf", {C{C::Index, "", nullptr, {}}}, err);
  ASSERT_TRUE(p) << err.message;
  EXPECT_TRUE(p->user);
  EXPECT_NE(scalar_c(ctx, *p).find(", 1, 1, \"w\")"), std::string::npos) << scalar_c(ctx, *p);
}

// The installed kernel's BTF, from its vmlinuz, then from the cache.
TEST(KernelBtf, VmlinuzYieldsVfsReadsPrototype) {
  std::string release;
  for (const auto &e : std::filesystem::directory_iterator("/boot"))
    if (e.path().filename().string().rfind("vmlinuz-", 0) == 0 &&
        e.path().string().find("amd64") != std::string::npos)
      release = e.path().filename().string().substr(8);
  if (release.empty())
    GTEST_SKIP() << "no amd64 kernel image in /boot";
  std::string dir = testing::TempDir() + "/btf_test_cache";
  std::filesystem::remove_all(dir);
  setenv("SYSTEMTAP_DIR", dir.c_str(), 1);
  std::string why;
  auto cold = kernel_btf(release, why);
  ASSERT_TRUE(cold) << why;
  EXPECT_EQ(cold->source, "/boot/vmlinuz-" + release);
  auto cached = kernel_btf(release, why);
  ASSERT_TRUE(cached) << why;
  EXPECT_NE(cached->source.find("kernel-symbols/" + release + ".btf"), std::string::npos);
  EXPECT_EQ(cached->data, cold->data);
  unsetenv("SYSTEMTAP_DIR");
  BtfTypes b;
  ASSERT_TRUE(read_btf(cached->data, nullptr, 8, b, why)) << why;
  ASSERT_TRUE(b.functions.count("vfs_read"));
  const Type &proto = b.types[b.functions.at("vfs_read")];
  ASSERT_EQ(proto.members.size(), 4u);
  EXPECT_EQ(proto.members[0].name, "file");
  EXPECT_EQ(listing_name(b.types, proto.members[0].type), "struct file*");
  EXPECT_EQ(proto.members[2].name, "count");
  EXPECT_EQ(listing_name(b.types, proto.members[2].type), "size_t");
  EXPECT_EQ(listing_name(b.types, proto.target), "ssize_t");
  auto file = b.types.find("struct file");
  ASSERT_TRUE(file);
  EXPECT_TRUE(b.types.member(*file, "f_path"));
  std::filesystem::remove_all(dir);
}
