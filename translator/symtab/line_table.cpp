// The line table builder (line_table.h). libdw decodes .debug_line; this
// file only turns its rows into disjoint address ranges and serialises them.
#include "symtab/line_table.h"

#include <dwarf.h>
#include <elfutils/libdw.h>

#include <algorithm>
#include <fcntl.h>
#include <map>
#include <unistd.h>

namespace stap::symtab {

namespace {

constexpr uint32_t kMagic = 0x31544c55; // "ULT1", runtime/task/line_table.h
constexpr size_t kHeader = 48;

// [start, end) has `line` of `file` (an index into the file names).
struct Range {
  uint64_t start, end;
  uint32_t line, file;
};

struct Row {
  uint32_t off, line, file; // line 0: no line here
};

// The address ranges of a CU's code (DW_AT_ranges, or low/high pc).
std::vector<std::pair<uint64_t, uint64_t>> cu_code(Dwarf_Die *cudie) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  Dwarf_Addr base, start, end;
  ptrdiff_t off = 0;
  while ((off = dwarf_ranges(cudie, off, &base, &start, &end)) > 0 && out.size() < 100000)
    if (end > start)
      out.emplace_back(start, end);
  return out;
}

// [a, b) cut to the CU's code range that holds a: libdw's rows are sorted
// by address, not kept by sequence, so a sequence's last row can be
// followed by another sequence's first, far away (a zero-length last row
// sorts after its end-of-sequence marker). Code outside the CU's ranges
// (what the linker discarded) has no range. CUs without ranges: as is.
bool clip_to_cu(const std::vector<std::pair<uint64_t, uint64_t>> &code, uint64_t a, uint64_t &b) {
  if (code.empty())
    return true;
  for (const auto &[s, e] : code)
    if (s <= a && a < e) {
      b = std::min(b, e);
      return true;
    }
  return false;
}

// Every range of every line sequence of every CU. Within a sequence a row
// covers the addresses up to the next row's; of rows at one address the
// last one holds (the earlier ones cover nothing), as addr2line reads them.
bool collect_ranges(Dwarf *dw, std::vector<Range> &ranges, std::vector<std::string> &files) {
  std::map<std::string, uint32_t> file_index;
  Dwarf_CU *cu = nullptr;
  Dwarf_Die cudie;
  uint8_t unit_type;
  while (dwarf_get_units(dw, cu, &cu, nullptr, &unit_type, &cudie, nullptr) == 0) {
    Dwarf_Lines *lines;
    size_t n;
    if (!dwarf_hasattr(&cudie, DW_AT_stmt_list) || dwarf_getsrclines(&cudie, &lines, &n) != 0)
      continue;
    std::vector<std::pair<uint64_t, uint64_t>> code = cu_code(&cudie);
    for (size_t i = 0; i + 1 < n; ++i) {
      Dwarf_Line *row = dwarf_onesrcline(lines, i), *next = dwarf_onesrcline(lines, i + 1);
      Dwarf_Addr a, b;
      bool end;
      int lineno;
      if (dwarf_lineendsequence(row, &end) != 0 || end)
        continue; // the next row starts another sequence
      if (dwarf_lineaddr(row, &a) != 0 || dwarf_lineaddr(next, &b) != 0 || b <= a ||
          dwarf_lineno(row, &lineno) != 0 || lineno <= 0 || !clip_to_cu(code, a, b))
        continue;
      const char *src = dwarf_linesrc(row, nullptr, nullptr);
      if (!src)
        continue;
      auto [it, fresh] = file_index.emplace(src, static_cast<uint32_t>(files.size()));
      if (fresh)
        files.push_back(src);
      ranges.push_back({a, b, static_cast<uint32_t>(lineno), it->second});
    }
  }
  return true;
}

// Disjoint rows from the ranges, sorted. Ranges of different sequences
// that overlap (code a linker discarded keeps its sequences, often at 0)
// are clipped: the range that starts first keeps its addresses.
std::vector<Row> make_rows(std::vector<Range> &ranges, uint64_t base) {
  std::stable_sort(ranges.begin(), ranges.end(),
                   [](const Range &x, const Range &y) { return x.start < y.start; });
  std::vector<Row> rows;
  uint64_t covered = 0; // addresses below this have their row
  bool any = false;
  auto add = [&](uint64_t at, uint32_t line, uint32_t file) {
    uint32_t off = static_cast<uint32_t>(at - base);
    if (!rows.empty() && rows.back().off == off)
      rows.pop_back(); // an empty gap: the new row replaces its marker
    if (!rows.empty() && rows.back().line == line && (line == 0 || rows.back().file == file))
      return; // the same line goes on
    rows.push_back({off, line, file});
  };
  for (const Range &r : ranges) {
    if (r.end <= base || r.start - base > 0xffffffffu || r.end - base > 0xffffffffu)
      continue;
    uint64_t start = std::max(r.start, base);
    if (any && r.end <= covered)
      continue;
    if (any && start < covered)
      start = covered;
    if (any && start > covered)
      add(covered, 0, 0);
    add(start, r.line, r.file);
    covered = r.end;
    any = true;
  }
  if (any)
    add(covered, 0, 0);
  return rows;
}

void put32(std::vector<uint8_t> &b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

std::vector<uint8_t> serialise(const std::vector<Row> &rows, const std::vector<std::string> &files,
                               uint64_t base, LineTableStats &st) {
  // Only the files rows name, in order of first use.
  std::vector<uint32_t> renumber(files.size(), UINT32_MAX);
  std::vector<uint32_t> used;
  std::vector<std::pair<uint32_t, uint32_t>> spans; // offset, new file index
  for (const Row &r : rows) {
    if (r.line == 0)
      continue;
    if (renumber[r.file] == UINT32_MAX) {
      renumber[r.file] = static_cast<uint32_t>(used.size());
      used.push_back(r.file);
    }
    if (spans.empty() || spans.back().second != renumber[r.file])
      spans.emplace_back(r.off, renumber[r.file]);
  }
  std::string pool;
  std::vector<uint32_t> name_off;
  for (uint32_t f : used) {
    name_off.push_back(static_cast<uint32_t>(pool.size()));
    pool += files[f];
    pool += '\0';
  }
  if (pool.empty())
    pool = std::string(1, '\0'); // the reader wants a NUL-terminated pool
  size_t rows_off = kHeader, spans_off = rows_off + 8 * rows.size(),
         files_off = spans_off + 8 * spans.size(), str_off = files_off + 4 * name_off.size(),
         total = (str_off + pool.size() + 3) & ~size_t(3);
  std::vector<uint8_t> b(total);
  put32(b, 0, kMagic);
  put32(b, 4, static_cast<uint32_t>(total));
  put32(b, 8, static_cast<uint32_t>(rows.size()));
  put32(b, 12, static_cast<uint32_t>(rows_off));
  put32(b, 16, static_cast<uint32_t>(spans.size()));
  put32(b, 20, static_cast<uint32_t>(spans_off));
  put32(b, 24, static_cast<uint32_t>(name_off.size()));
  put32(b, 28, static_cast<uint32_t>(files_off));
  put32(b, 32, static_cast<uint32_t>(str_off));
  put32(b, 36, static_cast<uint32_t>(pool.size()));
  put32(b, 40, static_cast<uint32_t>(base));
  put32(b, 44, static_cast<uint32_t>(base >> 32));
  for (size_t i = 0; i < rows.size(); ++i) {
    put32(b, rows_off + 8 * i, rows[i].off);
    put32(b, rows_off + 8 * i + 4, rows[i].line);
  }
  for (size_t i = 0; i < spans.size(); ++i) {
    put32(b, spans_off + 8 * i, spans[i].first);
    put32(b, spans_off + 8 * i + 4, spans[i].second);
  }
  for (size_t i = 0; i < name_off.size(); ++i)
    put32(b, files_off + 4 * i, name_off[i]);
  std::copy(pool.begin(), pool.end(), b.begin() + static_cast<long>(str_off));
  st.rows = rows.size();
  st.files = used.size();
  st.table_bytes = total;
  return b;
}

} // namespace

std::vector<uint8_t> build_line_table(const std::string &dwarf_path, uint64_t addr_base,
                                      std::string &err, LineTableStats *stats, size_t max_rows) {
  LineTableStats local;
  LineTableStats &st = stats ? *stats : local;
  st = {};
  int fd = open(dwarf_path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    err = "cannot open '" + dwarf_path + "'";
    return {};
  }
  std::vector<uint8_t> out;
  if (Dwarf *dw = dwarf_begin(fd, DWARF_C_READ)) { // NULL: no DWARF, no table
    std::vector<Range> ranges;
    std::vector<std::string> files;
    collect_ranges(dw, ranges, files);
    dwarf_end(dw);
    std::vector<Row> rows = make_rows(ranges, addr_base);
    if (rows.size() > max_rows) {
      st.rows = rows.size();
      st.too_big = true;
    } else if (!rows.empty()) {
      out = serialise(rows, files, addr_base, st);
    }
  }
  close(fd);
  return out;
}

} // namespace stap::symtab
