// uw-bench: what unwind/ costs.
//  - table size per object: bytes of unwind table per KB of .eh_frame, for
//    libc and the other system libraries (64- and 32-bit);
//  - unwind cost per frame: the bench unwinds its own 80-deep stack many
//    times, reading memory directly (what copy_from_user costs in the
//    kernel is close to this) and through /proc/self/mem (stap-ustack).
//  uw-bench [--write-table OBJECT FILE]   (writes one table, for fuzz seeds)
//  uw-bench --walks ROUNDS   (only the direct-read walks, ROUNDS x 4000:
//                             for perf stat -e instructions)
#include "address_space.h"
#include "symtab/unwind_table.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <unistd.h>

extern "C" void uw_bench_capture(uint64_t regs[17]);

namespace {

using Clock = std::chrono::steady_clock;

void table_sizes() {
  const char *objects[] = {
      "/usr/lib/x86_64-linux-gnu/libc.so.6",
      "/usr/lib/i386-linux-gnu/libc.so.6",
      "/usr/lib/x86_64-linux-gnu/libstdc++.so.6",
      "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
  };
  std::printf("%-48s %9s %5s %6s %9s %9s %8s\n", "object", "eh_frame", "FDEs",
              "syms", "table", "B/KB", "build_ms");
  for (const char *obj : objects) {
    stap::symtab::TableStats st;
    std::string err;
    auto t0 = Clock::now();
    auto blob = stap::symtab::build_unwind_table(obj, err, &st);
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    if (blob.empty()) {
      std::printf("%-48s %s\n", obj, err.c_str());
      continue;
    }
    // Break the table into its parts: index + CFI copy + symbols + strings.
    stap::symtab::TableOptions no_syms;
    no_syms.symbols = false;
    auto cfi_only = stap::symtab::build_unwind_table(obj, err, nullptr, no_syms);
    std::printf("%-48s %9zu %5zu %6zu %9zu %9.0f %8.1f\n", obj, st.eh_frame_bytes,
                st.fdes, st.symbols, st.table_bytes,
                1024.0 * double(st.table_bytes) / double(st.eh_frame_bytes), ms);
    std::printf("%-48s   unwind part %zu B (%.0f B/KB), symbols %zu B\n", "",
                cfi_only.size(),
                1024.0 * double(cfi_only.size()) / double(st.eh_frame_bytes),
                st.table_bytes - cfi_only.size());
  }
}

// Direct reads are limited to this process's stack and its mapped objects
// (the only memory a correct walk touches), so a wrong turn fails cleanly.
struct DirectMemory {
  const ustack::AddressSpace *space;
  uint64_t stack_lo, stack_hi;
};

int direct_read(void *ctx, uw_u64 addr, void *dst, uw_u32 len) {
  auto *m = static_cast<DirectMemory *>(ctx);
  bool on_stack = addr >= m->stack_lo && addr + len <= m->stack_hi;
  if (!on_stack && (!m->space->find(addr) || !m->space->find(addr + len - 1)))
    return -1;
  std::memcpy(dst, reinterpret_cast<const void *>(addr), len);
  return 0;
}

uint64_t captured[17];

// The mapping holding the captured stack pointer (not looked up by its
// "[stack]" name, which the stack lacks under valgrind).
bool stack_range(uint64_t &lo, uint64_t &hi) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line))
    if (std::sscanf(line.c_str(), "%lx-%lx", &lo, &hi) == 2 &&
        captured[UW_X86_64_SP] >= lo && captured[UW_X86_64_SP] < hi)
      return true;
  return false;
}

int (*volatile recurse_next)(int);
void (*volatile at_bottom)();

// The walks must run while the captured stack is still live, so the
// measurement itself is called from the bottom of the recursion.
__attribute__((noinline)) int recurse(int depth) {
  if (depth == 0) {
    uw_bench_capture(captured);
    at_bottom();
    return 0;
  }
  return recurse_next(depth - 1) + 1;
}

struct WalkCost {
  unsigned frames;
  double ns_per_frame;
  int stop;
};

// `fresh`: every walk starts with an empty workspace (no row or CIE
// learnt before it: a stack seen the first time); else one workspace
// serves every walk, as the kernel's per-CPU one does.
WalkCost time_walks(const ustack::AddressSpace &space, const uw_memory &mem,
                    unsigned iterations, bool fresh) {
  unsigned frames = 0;
  int stop = UW_OK;
  static uw_workspace kept;
  uw_workspace_init(&kept);
  auto t0 = Clock::now();
  for (unsigned it = 0; it < iterations; ++it) {
    uw_regs r{};
    r.arch = UW_ARCH_X86_64;
    r.valid = 0x1ffff;
    for (unsigned i = 0; i < 17; ++i)
      r.val[i] = captured[i];
    unsigned n = 1;
    uw_workspace fresh_ws, &ws = fresh ? fresh_ws : kept;
    if (fresh)
      uw_workspace_init(&ws);
    for (;;) {
      const ustack::MappedObject *obj = space.find(uw_pc(&r) - 1);
      uw_object o{obj && obj->has_table ? &obj->table : nullptr, obj ? obj->bias : 0};
      if ((stop = uw_step_ws(&o, &r, &mem, &ws)) != UW_OK)
        break;
      ++n;
    }
    frames = n;
  }
  double ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
  return {frames, ns / iterations / frames, stop};
}

ustack::ProcessMemory *self_memory;
ustack::AddressSpace *self_space;
int rounds = 5;
bool walks_only = false; // --walks ROUNDS: only the direct-read walks

void measure() {
  ustack::ProcessMemory &self = *self_memory;
  ustack::AddressSpace &space = *self_space;
  // Reading directly is only safe because every address the walk reads is
  // this process's own stack or code.
  DirectMemory dm{&space, 0, 0};
  if (!stack_range(dm.stack_lo, dm.stack_hi))
    return;
  uw_memory direct{direct_read, &dm};
  // The best of several rounds: the host is shared, and the slowest rounds
  // measure the other users.
  WalkCost d = time_walks(space, direct, 4000, true);
  WalkCost k = time_walks(space, direct, 4000, false);
  for (int round = 1; round < rounds; ++round) {
    WalkCost again = time_walks(space, direct, 4000, true);
    if (again.ns_per_frame < d.ns_per_frame)
      d = again;
    again = time_walks(space, direct, 4000, false);
    if (again.ns_per_frame < k.ns_per_frame)
      k = again;
  }
  if (walks_only) {
    std::printf("unwind: %u frames per walk (ends: %s); %.0f ns/frame with "
                "direct reads, each walk with a fresh workspace; %.0f ns/frame "
                "with one kept across walks (best of %d rounds of 4000 walks)\n",
                d.frames, uw_strerror(d.stop), d.ns_per_frame, k.ns_per_frame, rounds);
    return;
  }
  WalkCost p = time_walks(space, self.as_uw_memory(), 2000, true);
  std::printf("unwind: %u frames per walk (ends: %s); %.0f ns/frame with "
              "direct reads (fresh workspace), %.0f ns/frame (kept across walks), "
              "%.0f ns/frame through /proc/self/mem\n",
              d.frames, uw_strerror(d.stop), d.ns_per_frame, k.ns_per_frame, p.ns_per_frame);
}

void unwind_cost() {
  ustack::ProcessMemory self(getpid());
  ustack::AddressSpace space;
  std::string err;
  if (!space.load(getpid(), self, err)) {
    std::printf("cannot load own maps: %s\n", err.c_str());
    return;
  }
  self_memory = &self;
  self_space = &space;
  at_bottom = measure;
  recurse_next = recurse;
  recurse(80);
}

int write_table(const char *object, const char *file) {
  std::string err;
  auto blob = stap::symtab::build_unwind_table(object, err);
  if (blob.empty()) {
    std::fprintf(stderr, "uw-bench: %s\n", err.c_str());
    return 1;
  }
  std::ofstream(file, std::ios::binary)
      .write(reinterpret_cast<const char *>(blob.data()), std::streamsize(blob.size()));
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc == 4 && std::strcmp(argv[1], "--write-table") == 0)
    return write_table(argv[2], argv[3]);
  if (argc == 3 && std::strcmp(argv[1], "--walks") == 0) {
    // For `perf stat`: nothing but walks, so counters are the unwinder's.
    walks_only = true;
    rounds = std::atoi(argv[2]) > 0 ? std::atoi(argv[2]) : 1;
    unwind_cost();
    return 0;
  }
  table_sizes();
  std::fflush(stdout);
  unwind_cost();
  return 0;
}
