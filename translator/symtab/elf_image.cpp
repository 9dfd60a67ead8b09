// ElfImage: thin RAII over libelf; see elf_image.h.
#include "symtab/elf_image.h"

#include <cstring>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

namespace stap::symtab {

std::unique_ptr<ElfImage> ElfImage::open_file(const std::string &path,
                                              std::string &err) {
  std::unique_ptr<ElfImage> img(new ElfImage);
  img->fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (img->fd_ < 0) {
    err = path + ": cannot open";
    return nullptr;
  }
  elf_version(EV_CURRENT);
  img->elf_ = elf_begin(img->fd_, ELF_C_READ_MMAP, nullptr);
  if (!img->init(err)) {
    err = path + ": " + err;
    return nullptr;
  }
  return img;
}

std::unique_ptr<ElfImage> ElfImage::open_memory(std::vector<uint8_t> bytes,
                                                std::string &err) {
  std::unique_ptr<ElfImage> img(new ElfImage);
  img->memory_ = std::move(bytes);
  elf_version(EV_CURRENT);
  img->elf_ = elf_memory(reinterpret_cast<char *>(img->memory_.data()),
                         img->memory_.size());
  if (!img->init(err))
    return nullptr;
  return img;
}

ElfImage::~ElfImage() {
  if (elf_)
    elf_end(elf_);
  if (fd_ >= 0)
    ::close(fd_);
}

// The program headers that can be read. A count past the table (a hostile
// e_phnum, or PN_XNUM's count in section 0) makes gelf_getphdr fail for
// every later index: stop there, not after billions of failed calls
// (elf_table_fuzz found the hang).
static std::vector<GElf_Phdr> program_headers(Elf *elf) {
  std::vector<GElf_Phdr> out;
  size_t n = 0;
  if (elf_getphdrnum(elf, &n) != 0)
    return out;
  for (size_t i = 0; i < n; ++i) {
    GElf_Phdr ph;
    if (!gelf_getphdr(elf, static_cast<int>(i), &ph))
      break;
    out.push_back(ph);
  }
  return out;
}

bool ElfImage::init(std::string &err) {
  GElf_Ehdr eh;
  if (!elf_ || elf_kind(elf_) != ELF_K_ELF || !gelf_getehdr(elf_, &eh)) {
    err = "not an ELF object";
    return false;
  }
  machine_ = eh.e_machine;
  type_ = eh.e_type;
  is_64_ = gelf_getclass(elf_) == ELFCLASS64;
  bool first = true;
  for (const GElf_Phdr &ph : program_headers(elf_)) {
    if (ph.p_type != PT_LOAD)
      continue;
    loads_.push_back({ph.p_vaddr, ph.p_offset, ph.p_filesz, ph.p_memsz});
    uint64_t page = ph.p_vaddr & ~uint64_t(0xfff);
    if (first || page < load_base_)
      load_base_ = page;
    first = false;
  }
  return true;
}

std::optional<ElfSection> ElfImage::section(const std::string &name) const {
  size_t shstrndx;
  if (elf_getshdrstrndx(elf_, &shstrndx) != 0)
    return std::nullopt;
  for (Elf_Scn *scn = elf_nextscn(elf_, nullptr); scn;
       scn = elf_nextscn(elf_, scn)) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh))
      continue;
    const char *n = elf_strptr(elf_, shstrndx, sh.sh_name);
    if (!n || name != n)
      continue;
    ElfSection s;
    s.name = name;
    s.vaddr = sh.sh_addr;
    if (sh.sh_type != SHT_NOBITS) {
      Elf_Data *d = elf_rawdata(scn, nullptr);
      if (d && d->d_buf)
        s.bytes.assign(static_cast<uint8_t *>(d->d_buf),
                       static_cast<uint8_t *>(d->d_buf) + d->d_size);
    }
    return s;
  }
  return std::nullopt;
}

std::string ElfImage::build_id() const {
  static const char hex[] = "0123456789abcdef";
  for (Elf_Scn *scn = elf_nextscn(elf_, nullptr); scn; scn = elf_nextscn(elf_, scn)) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
      continue;
    Elf_Data *d = elf_getdata(scn, nullptr);
    if (!d)
      continue;
    GElf_Nhdr nh;
    size_t name_off, desc_off;
    for (size_t off = 0;
         (off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) != 0;) {
      if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
          std::memcmp(static_cast<char *>(d->d_buf) + name_off, "GNU", 4) != 0)
        continue;
      const auto *p = static_cast<const unsigned char *>(d->d_buf) + desc_off;
      std::string id;
      for (size_t i = 0; i < nh.n_descsz; ++i) {
        id += hex[p[i] >> 4];
        id += hex[p[i] & 15];
      }
      return id;
    }
  }
  return {};
}

std::string ElfImage::interpreter() const {
  for (const GElf_Phdr &ph : program_headers(elf_)) {
    if (ph.p_type != PT_INTERP)
      continue;
    size_t size = 0;
    const char *raw = elf_rawfile(elf_, &size);
    if (!raw || ph.p_offset > size || ph.p_filesz > size - ph.p_offset)
      return {};
    std::string s(raw + ph.p_offset, ph.p_filesz);
    return s.substr(0, s.find('\0'));
  }
  return {};
}

ElfImage::Dynamic ElfImage::dynamic() const {
  Dynamic dyn;
  for (Elf_Scn *scn = elf_nextscn(elf_, nullptr); scn; scn = elf_nextscn(elf_, scn)) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC || sh.sh_entsize == 0)
      continue;
    Elf_Data *d = elf_getdata(scn, nullptr);
    if (!d)
      continue;
    size_t n = sh.sh_size / sh.sh_entsize;
    for (size_t i = 0; i < n; ++i) {
      GElf_Dyn e;
      if (!gelf_getdyn(d, static_cast<int>(i), &e) || e.d_tag == DT_NULL)
        break;
      if (e.d_tag != DT_NEEDED && e.d_tag != DT_RPATH && e.d_tag != DT_RUNPATH)
        continue;
      const char *s = elf_strptr(elf_, sh.sh_link, e.d_un.d_val);
      if (!s)
        continue;
      if (e.d_tag == DT_NEEDED)
        dyn.needed.push_back(s);
      else if (e.d_tag == DT_RPATH)
        dyn.rpath = s, dyn.has_rpath = true;
      else
        dyn.runpath = s, dyn.has_runpath = true;
    }
    break;
  }
  return dyn;
}

std::vector<ElfSymbol> ElfImage::function_symbols() const { return symbols(true); }

std::vector<ElfSymbol> ElfImage::defined_symbols() const { return symbols(false); }

std::vector<ElfSymbol> ElfImage::symbols(bool functions_only) const {
  std::vector<ElfSymbol> out;
  for (Elf_Scn *scn = elf_nextscn(elf_, nullptr); scn;
       scn = elf_nextscn(elf_, scn)) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) ||
        (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
        sh.sh_entsize == 0)
      continue;
    Elf_Data *d = elf_getdata(scn, nullptr);
    if (!d)
      continue;
    size_t n = sh.sh_size / sh.sh_entsize;
    for (size_t i = 0; i < n; ++i) {
      GElf_Sym sym;
      if (!gelf_getsym(d, static_cast<int>(i), &sym))
        continue;
      int type = GELF_ST_TYPE(sym.st_info);
      bool wanted = functions_only ? type == STT_FUNC || type == STT_GNU_IFUNC
                                   : type != STT_SECTION && type != STT_FILE && type != STT_TLS &&
                                         sym.st_shndx != SHN_ABS;
      if (!wanted || sym.st_shndx == SHN_UNDEF || sym.st_value == 0)
        continue;
      const char *name = elf_strptr(elf_, sh.sh_link, sym.st_name);
      if (!name || !*name)
        continue;
      out.push_back({name, sym.st_value, sym.st_size,
                     static_cast<unsigned char>(GELF_ST_BIND(sym.st_info)),
                     sh.sh_type == SHT_SYMTAB});
    }
  }
  return out;
}

} // namespace stap::symtab
