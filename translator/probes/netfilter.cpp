// netfilter.hook("HOOK").pf("PF") and netfilter.pf("PF").hook("HOOK"),
// each with an optional .priority("N" | "NF_IP_PRI_*" | "NF_IP6_PRI_*"):
// a netfilter hook function per probe (runtime/probes/netfilter.c), as
// SystemTap 4.8 documents them (man stapprobes, NETFILTER HOOKS).
//
// The names are the kernel headers' (include/uapi/linux/netfilter*.h),
// checked here against the protocol family, as 4.8 checks them; in guru
// mode a name we do not know is written into the C verbatim, as 4.8 says.
//
// Target variables: $hooknum, $skb (struct sk_buff *), $in and $out
// (struct net_device *, 0 where the hook has none), and $verdict, which
// the hook returns (NF_ACCEPT unless a guru-mode probe assigns it). They
// live in a struct stp_nf_args on the hook function's stack, which the
// probe context points to (STP_NF_ARGS). Their pointer types come from the
// kernel's BTF; without BTF (the i686 kernel), from the tracepoint query
// object of <trace/events/net.h>, whose net_dev_xmit takes both an
// sk_buff and a net_device, when the probe follows a pointer; otherwise
// they are pointers to structs that are only declared.
#include "ast/visitor.h"
#include "codegen/emitter.h"
#include "codegen/module_writer.h"
#include "debuginfo/kernel_debuginfo.h"
#include "probes/family.h"
#include "tracequery/catalog.h"

#include <map>

namespace stap::probes {
namespace {

using debuginfo::Kind;
using debuginfo::TypeId;
using debuginfo::TypeTable;

struct Family {
  const char *name;
  int number;
  std::map<std::string, int> hooks;
  std::map<std::string, std::string> priorities; // values as C, for INT_MIN/INT_MAX
};

// The four protocol families of 4.8, with the hooks and priority names of
// the kernel headers that 4.8 accepts for each (checked against 4.8's
// pass 2: NF_BR_BROUTING, NF_INET_INGRESS and the bridge's NF_BR_PRI_*
// are refused; IPv4 also takes the old NF_IP_* hook names).
const std::vector<Family> &families() {
  static const std::vector<Family> table = [] {
    const char *inet[] = {"PRE_ROUTING", "LOCAL_IN", "FORWARD", "LOCAL_OUT", "POST_ROUTING"};
    const std::pair<const char *, const char *> pri[] = {
        {"FIRST", "INT_MIN"},         {"RAW_BEFORE_DEFRAG", "-450"},
        {"CONNTRACK_DEFRAG", "-400"}, {"RAW", "-300"},
        {"SELINUX_FIRST", "-225"},    {"CONNTRACK", "-200"},
        {"MANGLE", "-150"},           {"NAT_DST", "-100"},
        {"FILTER", "0"},              {"SECURITY", "50"},
        {"NAT_SRC", "100"},           {"SELINUX_LAST", "225"},
        {"CONNTRACK_HELPER", "300"},  {"CONNTRACK_CONFIRM", "INT_MAX"},
        {"LAST", "INT_MAX"}};
    Family ip{"NFPROTO_IPV4", 2, {}, {}}, ip6{"NFPROTO_IPV6", 10, {}, {}};
    Family arp{"NFPROTO_ARP", 3, {{"NF_ARP_IN", 0}, {"NF_ARP_OUT", 1}, {"NF_ARP_FORWARD", 2}}, {}};
    Family br{"NFPROTO_BRIDGE", 7, {}, {}};
    for (int i = 0; i < 5; ++i) {
      ip.hooks[std::string("NF_INET_") + inet[i]] = i;
      ip.hooks[std::string("NF_IP_") + inet[i]] = i;
      ip6.hooks[std::string("NF_IP6_") + inet[i]] = i;
      br.hooks[std::string("NF_BR_") + inet[i]] = i;
    }
    for (const auto &[name, value] : pri) {
      ip.priorities[std::string("NF_IP_PRI_") + name] = value;
      // the IPv6 header has no CONNTRACK_CONFIRM
      if (std::string(name) != "CONNTRACK_CONFIRM")
        ip6.priorities[std::string("NF_IP6_PRI_") + name] = value;
    }
    return std::vector<Family>{ip, arp, br, ip6};
  }();
  return table;
}

const Family *find_pf(const std::string &name) {
  for (const Family &f : families())
    if (name == f.name)
      return &f;
  return nullptr;
}

// A decimal priority, as 4.8 takes it ("255", "-5").
bool is_number(const std::string &s) {
  size_t i = s[0] == '-' || s[0] == '+' ? 1 : 0;
  if (i == s.size() || s.size() > 11)
    return false;
  for (; i < s.size(); ++i)
    if (!isdigit(static_cast<unsigned char>(s[i])))
      return false;
  long long v = std::stoll(s);
  return v >= INT32_MIN && v <= INT32_MAX;
}

// Does the probe follow one of its pointers ($skb->len, $in$, s = $skb;
// s->x)? Only then are the pointed-to types worth a tracepoint query.
bool follows_pointers(const ast::ProbeDecl &decl) {
  struct Finder : ast::Visitor {
    bool found = false;
    void visit(ast::TargetExpr &t) override {
      if (!t.components.empty() || (t.name.size() > 1 && t.name.back() == '$'))
        found = true;
    }
    void visit(ast::AutocastExpr &) override { found = true; }
  } f;
  if (decl.body)
    decl.body->accept(f);
  return f.found;
}

// A pointer to `struct NAME` in `tt` (one the table already has: shared
// tables are not ours to extend).
std::optional<TypeId> pointer_to(const TypeTable &tt, const std::string &name) {
  std::optional<TypeId> s = tt.find("struct " + name);
  if (!s)
    return std::nullopt;
  for (TypeId id = 1; id < tt.size(); ++id)
    if (tt[id].kind == Kind::Pointer && tt[id].target == *s)
      return id;
  return std::nullopt;
}

struct Types {
  std::shared_ptr<const TypeTable> table;
  TypeId uint = 0, skb = 0, dev = 0;
  std::string source;
};

bool from_table(std::shared_ptr<const TypeTable> tt, const std::string &source, Types &out) {
  auto u = tt->find("unsigned int");
  auto skb = pointer_to(*tt, "sk_buff");
  auto dev = pointer_to(*tt, "net_device");
  if (!u || !skb || !dev)
    return false;
  out = {std::move(tt), *u, *skb, *dev, source};
  return true;
}

// Pointers to declared structs: the values are there, `->` is an error.
Types declared_only(unsigned long_size) {
  auto tt = std::make_shared<TypeTable>();
  debuginfo::Type u;
  u.kind = Kind::Int;
  u.name = "unsigned int";
  u.size = 4;
  TypeId uint = tt->add(u);
  auto pointer = [&](const char *name) {
    debuginfo::Type s;
    s.kind = Kind::Struct;
    s.name = name;
    s.declaration = true;
    debuginfo::Type p;
    p.kind = Kind::Pointer;
    p.size = long_size;
    p.target = tt->add(s);
    return tt->add(p);
  };
  TypeId skb = pointer("sk_buff"), dev = pointer("net_device");
  return {tt, uint, skb, dev, "netfilter"};
}

Types types_for(const ResolveEnv &env, bool need_layouts) {
  std::string why;
  if (env.kernel_debuginfo)
    if (const debuginfo::ObjectTypes *k = env.kernel_debuginfo->kernel(why)) {
      Types t;
      if (from_table(k->types, k->source, t))
        return t;
    }
  if (need_layouts && env.tracepoints)
    if (const tracequery::Catalog *cat = env.tracepoints->of(env.target, "net", false, why))
      for (const tracequery::Tracepoint &tp : cat->tracepoints())
        if (tp.system == "net" && tp.name == "net_dev_xmit")
          if (const tracequery::TracepointProto *p = cat->proto(tp, why)) {
            Types t;
            if (from_table(p->types, "tracepoint query (net)", t))
              return t;
          }
  return declared_only(env.arch.long_size);
}

std::shared_ptr<const debuginfo::TargetScope> scope_of(const Types &t) {
  auto s = std::make_shared<debuginfo::TargetScope>();
  s->types = t.table;
  s->source = t.source;
  auto add = [&](const char *name, TypeId type, const std::string &field, bool address) {
    debuginfo::TargetVar v;
    v.name = name;
    v.type = type;
    v.parameter = true;
    v.loc.kind = address ? debuginfo::VarLocation::Address : debuginfo::VarLocation::Value;
    v.loc.c_expr = address ? "((unsigned long)&STP_NF_ARGS(c)->" + field + ")"
                           : "(STP_NF_ARGS(c)->" + field + ")";
    s->vars.push_back(std::move(v));
  };
  add("hooknum", t.uint, "hooknum", false);
  add("skb", t.skb, "skb", false);
  add("in", t.dev, "in", false);
  add("out", t.dev, "out", false);
  // In memory, so that a guru-mode assignment changes what the hook returns.
  add("verdict", t.uint, "verdict", true);
  return s;
}

class NetfilterFamily final : public ProbeFamily {
public:
  std::string_view probe_type(const ResolvedProbe &) const override {
    return "netfilter";
  }
  std::vector<std::string_view> roots() const override { return {"netfilter"}; }

  std::vector<PointShape> shapes() const override {
    std::vector<PointShape> out;
    for (bool hook_first : {true, false})
      for (bool priority : {false, true}) {
        PointShape s = {{"netfilter", false}};
        s.push_back({hook_first ? "hook" : "pf", true});
        s.push_back({hook_first ? "pf" : "hook", true});
        if (priority)
          s.push_back({"priority", true});
        out.push_back(s);
      }
    return out;
  }

  bool resolve(const ResolveEnv &env, ast::ProbeDecl &decl, ast::ProbePoint &point,
               std::vector<ResolvedProbe> &out, Diagnostics &diag) const override {
    const auto &cs = point.components;
    const std::string usage =
        "expected netfilter.hook(\"HOOK\").pf(\"PF\")[.priority(\"P\")] or "
        "netfilter.pf(\"PF\").hook(\"HOOK\")[.priority(\"P\")]";
    // Which component is which, each a string: hook and pf first (in
    // either order), then priority.
    const ast::ProbePointComponent *hook = nullptr, *pf = nullptr, *prio = nullptr;
    for (size_t i = 1; i < cs.size(); ++i) {
      const ast::ProbePointComponent **slot = nullptr;
      if (i < 3 && cs[i].functor == "hook")
        slot = &hook;
      else if (i < 3 && cs[i].functor == "pf")
        slot = &pf;
      else if (i == 3 && cs[i].functor == "priority")
        slot = &prio;
      if (!slot || *slot) {
        diag.error(cs[i].loc, "unexpected '" + cs[i].functor + "' in '" +
                                  probe_point_string(point) + "': " + usage);
        return false;
      }
      if (!string_arg(cs[i])) {
        diag.error(cs[i].loc, "netfilter ." + cs[i].functor + " takes a string: " + usage);
        return false;
      }
      *slot = &cs[i];
    }
    if (cs[0].arg || !hook || !pf) {
      diag.error(cs[0].loc, "incomplete netfilter probe '" + probe_point_string(point) +
                                "': " + usage);
      return false;
    }
    const ast::StringLit *pf_s = string_arg(*pf), *hook_s = string_arg(*hook);
    const ast::StringLit *prio_s = prio ? string_arg(*prio) : nullptr;

    // 4.8's messages, which name the family by its number.
    const Family *f = find_pf(pf_s->value);
    std::string pf_c, hook_c, prio_c = "0";
    if (f) {
      pf_c = std::to_string(f->number);
    } else if (env.guru) {
      pf_c = "(" + pf_s->value + ")";
    } else {
      diag.error(pf_s->loc, "unsupported netfilter protocol family \"" + pf_s->value +
                                "\"; need stap -g");
      return false;
    }
    std::string family_shown = f ? std::to_string(f->number) : pf_s->value;
    const int *hook_number = nullptr;
    if (f)
      if (auto h = f->hooks.find(hook_s->value); h != f->hooks.end())
        hook_number = &h->second;
    if (hook_number) {
      hook_c = std::to_string(*hook_number);
    } else if (env.guru) {
      hook_c = any_hook(hook_s->value);
    } else {
      diag.error(hook_s->loc, "unsupported netfilter hook \"" + hook_s->value +
                                  "\" for protocol family \"" + family_shown +
                                  "\"; need stap -g");
      return false;
    }
    if (prio_s) {
      const std::string *named = nullptr;
      if (f)
        if (auto p = f->priorities.find(prio_s->value); p != f->priorities.end())
          named = &p->second;
      if (!prio_s->value.empty() && is_number(prio_s->value))
        prio_c = std::to_string(std::stoll(prio_s->value));
      else if (named)
        prio_c = *named;
      else if (env.guru)
        prio_c = "(" + prio_s->value + ")";
      else {
        diag.error(prio_s->loc, "unsupported netfilter priority \"" + prio_s->value +
                                    "\" for protocol family \"" + family_shown +
                                    "\"; need stap -g");
        return false;
      }
    }
    ResolvedProbe r = make_resolved(decl, point, this);
    r.c_fields = ".pf = " + pf_c + ", .hooknum = " + hook_c + ", .priority = " + prio_c;
    r.scope = scope_of(types_for(env, env.list_vars || follows_pointers(decl)));
    out.push_back(std::move(r));
    return true;
  }

  std::vector<ContextVar> context_vars(const ResolvedProbe &probe) const override {
    std::vector<ContextVar> vars;
    if (probe.scope)
      for (const debuginfo::TargetVar &v : probe.scope->vars)
        vars.push_back({"$" + v.name, ast::Type::Long});
    return vars;
  }

  void emit(codegen::ModuleWriter &w,
            const std::vector<const ResolvedProbe *> &probes) const override {
    // A guru-mode name is C the kernel headers define.
    for (const ResolvedProbe *p : probes)
      if (p->c_fields.find('(') != std::string::npos) {
        w.out().blank();
        for (const char *h : {"linux/netfilter.h", "linux/netfilter_ipv4.h",
                              "linux/netfilter_ipv6.h", "linux/netfilter_arp.h",
                              "linux/netfilter_bridge.h"})
          w.out().line(std::string("#include <") + h + ">");
        break;
      }
    w.emit_probe_table("NETFILTER", "struct stp_netfilter_probe", probes);
  }

private:
  // A hook name of any family (the family itself is a guru-mode name),
  // else the name verbatim.
  static std::string any_hook(const std::string &name) {
    for (const Family &f : families())
      if (auto h = f.hooks.find(name); h != f.hooks.end())
        return std::to_string(h->second);
    return "(" + name + ")";
  }
};

} // namespace

const ProbeFamily &netfilter_family() {
  static const NetfilterFamily family;
  return family;
}

} // namespace stap::probes
