// procfs("NAME").read / .write, procfs.read / .write (NAME "command"),
// with .umask(U) after the name and .maxsize(N) after .read: files in
// /proc/systemtap/MODULE whose reads and writes run the probe
// (runtime/probes/procfs.c). The data is `$value`, a string: what a read
// probe assigns to it is what the reader gets; a write probe finds in it
// what was written. passes/procfs_value.cpp turns `$value` into calls of
// tapsets/procfs.stp.
#include "codegen/emitter.h"
#include "codegen/module_writer.h"
#include "probes/family.h"

namespace stap::probes {
namespace {

// As SystemTap 4.8: a file readable (0400), writable (0200) or both (0600)
// by its owner unless .umask(U) says otherwise: the mode is 0444, 0222 or
// 0666 less the umask, and 066 when none is given.
constexpr int64_t kDefaultUmask = 066;

class ProcfsFamily final : public ProbeFamily {
public:
  std::string_view probe_type(const ResolvedProbe &) const override {
    return "procfs"; // input.char and input.line too
  }
  std::vector<std::string_view> roots() const override { return {"procfs"}; }

  std::vector<PointShape> shapes() const override {
    std::vector<PointShape> out;
    for (bool named : {false, true})
      for (bool umask : {false, true}) {
        PointShape head = {{"procfs", named}};
        if (umask)
          head.push_back({"umask", true});
        PointShape read = head, sized = head, write = head;
        read.push_back({"read", false});
        sized.push_back({"read", false});
        sized.push_back({"maxsize", true});
        write.push_back({"write", false});
        out.push_back(read);
        out.push_back(sized);
        out.push_back(write);
      }
    return out;
  }

  bool resolve(const ResolveEnv &, ast::ProbeDecl &decl, ast::ProbePoint &point,
               std::vector<ResolvedProbe> &out, Diagnostics &diag) const override {
    const auto &cs = point.components;
    std::string name = "command";
    if (cs[0].arg) {
      const ast::StringLit *s = string_arg(cs[0]);
      if (!s) {
        diag.error(cs[0].loc, "procfs takes a file name string: procfs(\"NAME\")");
        return false;
      }
      name = s->value;
      // "__stdin" is input.char/input.line's file (staprun forwards its
      // standard input to it); a script may use it too, as in 4.8.
      if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..") {
        diag.error(cs[0].loc, "invalid procfs file name '" + name +
                                  "': one name in /proc/systemtap/MODULE, without '/'");
        return false;
      }
    }
    size_t i = 1;
    int64_t umask = kDefaultUmask;
    if (i < cs.size() && cs[i].functor == "umask") {
      const ast::NumberLit *u = number_arg(cs[i]);
      if (!u || u->value < 0 || u->value > 0777) {
        diag.error(cs[i].loc, "procfs umask needs a number from 0 to 0777");
        return false;
      }
      umask = u->value;
      ++i;
    }
    if (i >= cs.size() || cs[i].arg || (cs[i].functor != "read" && cs[i].functor != "write")) {
      diag.error((i < cs.size() ? cs[i] : cs.back()).loc,
                 "unknown procfs probe '" + probe_point_string(point) +
                     "': expected procfs[(\"NAME\")][.umask(U)].read[.maxsize(N)] or .write");
      return false;
    }
    bool write = cs[i].functor == "write";
    ++i;
    std::string maxsize = "STP_PROCFS_BUFSIZE";
    if (!write && i < cs.size() && cs[i].functor == "maxsize") {
      const ast::NumberLit *n = number_arg(cs[i]);
      if (!n || n->value <= 0 || n->value > (1 << 20)) {
        diag.error(cs[i].loc, "procfs maxsize needs a number from 1 to 1048576");
        return false;
      }
      maxsize = std::to_string(n->value);
      ++i;
    }
    if (i < cs.size()) {
      diag.error(cs[i].loc, "unexpected '" + cs[i].functor + "' in procfs probe '" +
                                probe_point_string(point) + "'");
      return false;
    }
    // A file has one reader (its text), but any number of write probes
    // (each runs on every write), as in 4.8.
    const std::string file = ".path = " + codegen::c_string_literal(name) + ", .write = ";
    if (!write)
      for (const ResolvedProbe &other : out)
        if (other.family == this && other.c_fields.rfind(file + "false", 0) == 0) {
          diag.error(point.loc, "only one read procfs probe can exist for procfs path \"" +
                                    name + "\"");
          return false;
        }
    ResolvedProbe r = make_resolved(decl, point, this);
    r.c_fields = file + (write ? "true" : "false") + ", .umask = " + std::to_string(umask) +
                 ", .maxsize = " + maxsize;
    out.push_back(std::move(r));
    return true;
  }

  // No context_vars(): `$value` is rewritten into calls of
  // tapsets/procfs.stp (passes/procfs_value.cpp), and SystemTap 4.8's -L
  // lists none either (`procfs.read`, checked).

  void emit(codegen::ModuleWriter &w,
            const std::vector<const ResolvedProbe *> &probes) const override {
    w.emit_probe_table("PROCFS", "struct stp_procfs_probe", probes);
  }
};

} // namespace

const ProbeFamily &procfs_family() {
  static const ProcfsFamily family;
  return family;
}

} // namespace stap::probes
