#include "probes/family.h"

#include <cstdio>

namespace stap::probes {

// One accessor per family, each defined in that family's file.
const ProbeFamily &begin_end_family();
const ProbeFamily &timer_family();
const ProbeFamily &kprobe_family();
const ProbeFamily &tracepoint_family();
const ProbeFamily &uprobe_family();
const ProbeFamily &process_events_family();
const ProbeFamily &perf_family();
const ProbeFamily &procfs_family();
const ProbeFamily &netfilter_family();
const ProbeFamily &hwbkpt_family();

const std::vector<const ProbeFamily *> &all_families() {
  static const std::vector<const ProbeFamily *> families = {
      &begin_end_family(),
      &timer_family(),
      &kprobe_family(),
      &tracepoint_family(),
      &uprobe_family(),
      &process_events_family(),
      &perf_family(),
      &procfs_family(),
      &netfilter_family(),
      &hwbkpt_family(),
  };
  return families;
}

const ProbeFamily *find_family(std::string_view root) {
  for (const ProbeFamily *f : all_families())
    for (std::string_view r : f->roots())
      if (r == root)
        return f;
  return nullptr;
}

std::vector<PointShape> ProbeFamily::shapes() const {
  std::vector<PointShape> out;
  for (std::string_view r : roots())
    out.push_back({{std::string(r), false}});
  return out;
}

ResolvedProbe make_resolved(ast::ProbeDecl &decl, ast::ProbePoint &point,
                            const ProbeFamily *family) {
  ResolvedProbe r;
  r.decl = &decl;
  r.point = &point;
  r.family = family;
  r.pp = probe_point_string(point);
  r.pn = r.pp;
  return r;
}

std::optional<ContextVar> find_context_var(const ResolvedProbe &probe, std::string_view name) {
  if (!probe.family)
    return std::nullopt;
  for (ContextVar &v : probe.family->context_vars(probe))
    if (v.name == name)
      return v;
  return std::nullopt;
}

const ast::NumberLit *number_arg(const ast::ProbePointComponent &c) {
  return dynamic_cast<const ast::NumberLit *>(c.arg);
}

const ast::StringLit *string_arg(const ast::ProbePointComponent &c) {
  return dynamic_cast<const ast::StringLit *>(c.arg);
}

ast::ProbePoint *keep_point(std::unique_ptr<ast::ProbePoint> point) {
  static std::vector<std::unique_ptr<ast::ProbePoint>> made;
  made.push_back(std::move(point));
  return made.back().get();
}

ast::ProbePoint *with_string_arg(const ast::ProbePoint &point, size_t index,
                                 const std::string &value) {
  static std::vector<std::unique_ptr<ast::StringLit>> strings;
  auto p = std::make_unique<ast::ProbePoint>(point);
  const ast::StringLit *old = string_arg(point.components[index]);
  auto s = old ? std::make_unique<ast::StringLit>(*old) : std::make_unique<ast::StringLit>();
  if (!old)
    s->loc = point.components[index].loc;
  s->value = value;
  p->components[index].arg = s.get();
  strings.push_back(std::move(s));
  return keep_point(std::move(p));
}

std::string component_string(const ast::ProbePointComponent &c) {
  std::string s = c.functor;
  if (auto *n = dynamic_cast<const ast::NumberLit *>(c.arg))
    s += "(" + std::to_string(n->value) + ")";
  else if (auto *str = dynamic_cast<const ast::StringLit *>(c.arg))
    s += "(\"" + str->value + "\")";
  return s;
}

std::string hex_addr(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string probe_point_string(const ast::ProbePoint &p) {
  std::string s;
  for (size_t i = 0; i < p.components.size(); ++i) {
    const auto &c = p.components[i];
    if (!s.empty())
      s += '.';
    // A watched address prints in hex wherever SystemTap 4.8 shows the
    // point (numbers elsewhere in decimal: timer.ms(16)).
    auto *n = dynamic_cast<const ast::NumberLit *>(c.arg);
    if (i == 1 && n && c.functor == "data" && p.components[0].functor == "kernel") {
      s += "data(" + hex_addr(static_cast<uint64_t>(n->value)) + ")";
      continue;
    }
    s += component_string(c);
  }
  return s;
}

} // namespace stap::probes
