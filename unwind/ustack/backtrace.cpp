// Stack walking and formatting; see backtrace.h.
#include "backtrace.h"

#include <cinttypes>
#include <cstdio>

namespace ustack {

Walk walk_stack(uw_regs regs, const AddressSpace &space,
                const ProcessMemory &mem, unsigned max_frames) {
  Walk w;
  uw_memory m = mem.as_uw_memory();
  // The kernel's way: one workspace for the walk (per CPU there).
  uw_workspace ws;
  uw_workspace_init(&ws);
  while (w.frames.size() < max_frames) {
    uint64_t pc = uw_pc(&regs);
    w.frames.push_back({pc, (regs.flags & UW_PC_EXACT) != 0});
    // The object is the one holding the call instruction, which for a
    // return address at the very end of a mapping is the byte before.
    const MappedObject *obj =
        space.find((regs.flags & UW_PC_EXACT) ? pc : pc - 1);
    uw_object o{obj && obj->has_table ? &obj->table : nullptr,
                obj ? obj->bias : 0};
    w.stop = uw_step_ws(&o, &regs, &m, &ws);
    if (w.stop != UW_OK)
      return w;
  }
  w.stop = UW_ELIMIT;
  return w;
}

std::string format_frame(const Frame &f, const AddressSpace &space, bool is32) {
  char buf[1024];
  const int width = is32 ? 8 : 16;
  // Symbols are looked up at the call instruction for return addresses.
  uint64_t lookup = f.exact ? f.pc : f.pc - 1;
  const MappedObject *obj = space.find(lookup);
  if (!obj) {
    std::snprintf(buf, sizeof buf, " 0x%0*" PRIx64, width, f.pc);
    return buf;
  }
  const char *name;
  uw_u64 start, size;
  if (obj->has_table &&
      uw_table_symbol(&obj->table, lookup - obj->bias, &name, &start, &size) == 0) {
    std::snprintf(buf, sizeof buf, " 0x%0*" PRIx64 " : %s+%#" PRIx64 "/%#" PRIx64 " [%s]",
                  width, f.pc, name, f.pc - obj->bias - start, size,
                  obj->path.c_str());
  } else {
    std::snprintf(buf, sizeof buf, " 0x%0*" PRIx64 " [%s+%#" PRIx64 "]", width,
                  f.pc, obj->path.c_str(), f.pc - obj->bias);
  }
  return buf;
}

} // namespace ustack
