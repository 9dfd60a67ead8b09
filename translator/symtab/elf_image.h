// An ELF object opened with libelf, from a file or from bytes in memory
// (the vDSO is read out of the traced process). Gives the table builder the
// few things it needs: machine, load range, named sections, symbols.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

typedef struct Elf Elf;

namespace stap::symtab {

struct ElfSection {
  std::string name;
  uint64_t vaddr = 0;         // sh_addr
  std::vector<uint8_t> bytes; // empty for SHT_NOBITS
};

struct ElfSymbol {
  std::string name;
  uint64_t value = 0;
  uint64_t size = 0;
  unsigned char binding = 0; // STB_*
  bool from_symtab = false;  // .symtab (full) rather than .dynsym
};

class ElfImage {
public:
  // Opens path; on failure returns nullopt and sets err.
  static std::unique_ptr<ElfImage> open_file(const std::string &path,
                                             std::string &err);
  // Parses an image held in memory (copied).
  static std::unique_ptr<ElfImage> open_memory(std::vector<uint8_t> bytes,
                                               std::string &err);
  ~ElfImage();
  ElfImage(const ElfImage &) = delete;
  ElfImage &operator=(const ElfImage &) = delete;

  unsigned machine() const { return machine_; } // EM_*
  bool is_64() const { return is_64_; }
  unsigned type() const { return type_; } // ET_EXEC, ET_DYN, ...
  // Lowest PT_LOAD address rounded down to its page (the link-time base).
  uint64_t load_base() const { return load_base_; }
  std::optional<ElfSection> section(const std::string &name) const;
  // Function symbols (STT_FUNC, STT_GNU_IFUNC) defined in this object.
  std::vector<ElfSymbol> function_symbols() const;
  // Every defined symbol with a name and an address (functions, objects,
  // untyped), for operands that name data (SDT marker arguments).
  std::vector<ElfSymbol> defined_symbols() const;

  // The GNU build-id note as lowercase hex, or "".
  std::string build_id() const;
  // PT_INTERP: the program interpreter the kernel loads, or "".
  std::string interpreter() const;
  // What the dynamic loader reads from PT_DYNAMIC: DT_NEEDED names in order,
  // DT_RPATH and DT_RUNPATH (colon-separated, unexpanded; "" when absent).
  struct Dynamic {
    std::vector<std::string> needed;
    std::string rpath, runpath;
    bool has_rpath = false, has_runpath = false;
  };
  Dynamic dynamic() const;

  struct Segment {
    uint64_t vaddr, offset, filesz, memsz;
  };
  const std::vector<Segment> &loads() const { return loads_; }

private:
  ElfImage() = default;
  std::vector<ElfSymbol> symbols(bool functions_only) const;
  bool init(std::string &err);
  int fd_ = -1;
  Elf *elf_ = nullptr;
  std::vector<uint8_t> memory_;
  unsigned machine_ = 0;
  unsigned type_ = 0;
  bool is_64_ = false;
  uint64_t load_base_ = 0;
  std::vector<Segment> loads_;
};

} // namespace stap::symtab
