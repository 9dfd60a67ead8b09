#include "debuginfo/btf_files.h"

#include "symtab/kernel_symbols.h"
#include "util/progress_line.h"

#include <elf.h>
#include <lzma.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace stap::debuginfo {
namespace {

std::optional<std::string> read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_atomically(const std::string &path, std::string_view data) {
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    out.write(data.data(), static_cast<std::streamsize>(data.size()));
    if (!out)
      return;
  }
  fs::rename(tmp, path, ec);
  if (ec)
    fs::remove(tmp, ec);
}

template <typename Ehdr, typename Shdr>
std::optional<std::string_view> section(std::string_view elf, std::string_view name) {
  Ehdr eh;
  if (elf.size() < sizeof(eh))
    return std::nullopt;
  std::memcpy(&eh, elf.data(), sizeof(eh));
  auto shdr = [&](size_t i) -> std::optional<Shdr> {
    uint64_t off = eh.e_shoff + uint64_t(i) * eh.e_shentsize;
    if (eh.e_shentsize < sizeof(Shdr) || off + sizeof(Shdr) > elf.size())
      return std::nullopt;
    Shdr s;
    std::memcpy(&s, elf.data() + off, sizeof(s));
    return s;
  };
  auto names = shdr(eh.e_shstrndx);
  if (!names || names->sh_offset + names->sh_size > elf.size())
    return std::nullopt;
  std::string_view strtab = elf.substr(names->sh_offset, names->sh_size);
  for (size_t i = 1; i < eh.e_shnum; ++i) {
    auto s = shdr(i);
    if (!s || s->sh_name >= strtab.size())
      continue;
    if (std::string_view(strtab.data() + s->sh_name) != name)
      continue;
    if (s->sh_type == SHT_NOBITS || s->sh_offset + s->sh_size > elf.size())
      return std::nullopt;
    return elf.substr(s->sh_offset, s->sh_size);
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string_view> elf_section(std::string_view elf, std::string_view name) {
  if (elf.size() < EI_NIDENT || std::memcmp(elf.data(), ELFMAG, SELFMAG) != 0 ||
      elf[EI_DATA] != ELFDATA2LSB)
    return std::nullopt;
  if (elf[EI_CLASS] == ELFCLASS64)
    return section<Elf64_Ehdr, Elf64_Shdr>(elf, name);
  if (elf[EI_CLASS] == ELFCLASS32)
    return section<Elf32_Ehdr, Elf32_Shdr>(elf, name);
  return std::nullopt;
}

std::optional<std::string> unpack_kernel_image(std::string_view image, std::string &why) {
  static const char xz_magic[] = "\xFD" "7zXZ";
  size_t at = image.find(std::string_view(xz_magic, 6));
  if (at == std::string_view::npos) {
    why = "no xz stream in the kernel image (other compressions are not supported)";
    return std::nullopt;
  }
  lzma_stream s = LZMA_STREAM_INIT;
  if (lzma_stream_decoder(&s, UINT64_MAX, 0) != LZMA_OK) {
    why = "cannot start the xz decoder";
    return std::nullopt;
  }
  std::string out;
  out.resize(64u << 20);
  s.next_in = reinterpret_cast<const uint8_t *>(image.data() + at);
  s.avail_in = image.size() - at;
  s.next_out = reinterpret_cast<uint8_t *>(out.data());
  s.avail_out = out.size();
  lzma_ret rc;
  for (;;) {
    rc = lzma_code(&s, LZMA_FINISH);
    if (rc != LZMA_OK)
      break;
    if (s.avail_out == 0) {
      size_t done = out.size();
      out.resize(done * 2);
      s.next_out = reinterpret_cast<uint8_t *>(out.data()) + done;
      s.avail_out = out.size() - done;
    }
  }
  out.resize(s.total_out);
  lzma_end(&s);
  // The stream is followed by the image's trailer: data after the end of
  // the stream is no error.
  if (rc != LZMA_STREAM_END && !(rc == LZMA_DATA_ERROR && !out.empty())) {
    why = "the kernel image's xz stream does not unpack (lzma error " + std::to_string(rc) + ")";
    return std::nullopt;
  }
  return out;
}

std::optional<BtfBytes> elf_btf(const std::string &path, std::string &why) {
  auto bytes = read_file(path);
  if (!bytes) {
    why = "cannot read " + path;
    return std::nullopt;
  }
  auto btf = elf_section(*bytes, ".BTF");
  if (!btf) {
    why = path + " has no .BTF section";
    return std::nullopt;
  }
  return BtfBytes{std::string(*btf), path};
}

std::optional<BtfBytes> kernel_btf(const std::string &release, std::string &why) {
  std::string cache = symtab::symbol_cache_dir() + "/" + release + ".btf";
  std::string image_path = "/boot/vmlinuz-" + release;
  std::error_code ec;
  auto image_time = fs::last_write_time(image_path, ec);
  bool have_image = !ec;
  auto cache_time = fs::last_write_time(cache, ec);
  // The cache answers while it is newer than the image it came from.
  if (!ec && (!have_image || cache_time >= image_time))
    if (auto data = read_file(cache); data && data->size() > 24)
      return BtfBytes{std::move(*data), cache + " (from " + image_path + ")"};
  if (!have_image) {
    why = "no kernel image " + image_path;
    return std::nullopt;
  }
  ProgressLine progress("unpacking the BTF of " + release + " from " + image_path +
                        " (once per release)");
  auto image = read_file(image_path);
  if (!image) {
    why = "cannot read " + image_path;
    return std::nullopt;
  }
  auto elf = unpack_kernel_image(*image, why);
  if (!elf)
    return std::nullopt;
  auto btf = elf_section(*elf, ".BTF");
  if (!btf) {
    why = "the vmlinux in " + image_path + " has no .BTF section";
    return std::nullopt;
  }
  write_atomically(cache, *btf);
  return BtfBytes{std::string(*btf), image_path};
}

} // namespace stap::debuginfo
