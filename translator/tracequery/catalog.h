// The tracepoints of a target kernel, from its query objects
// (query_objects.h): each one's TRACE_SYSTEM and name, read from the
// objects' symbol tables (cheap), and its arguments with their types, read
// from the object's DWARF the first time a probe on it is resolved.
#pragma once
#include "debuginfo/target_scope.h"
#include "driver/target.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace stap::tracequery {

struct Tracepoint {
  std::string system;   // TRACE_SYSTEM: "sched"
  std::string name;     // "sched_switch"
  std::string object;   // the query object that describes it
};

// One argument of a tracepoint's probe function.
struct TracepointArg {
  std::string name;     // "prev"
  debuginfo::TypeId type = debuginfo::void_type;
};

// A tracepoint's arguments and the table their types are in (shared by the
// tracepoints of one header).
struct TracepointProto {
  std::shared_ptr<const debuginfo::TypeTable> types;
  std::vector<TracepointArg> args;
};

class Catalog {
public:
  // Sorted by system, then name; a name declared by two headers is kept once.
  const std::vector<Tracepoint> &tracepoints() const { return tracepoints_; }
  // The prototype of `tp`, reading its object's DWARF on first use; null
  // with `error` set when the object cannot be read.
  const TracepointProto *proto(const Tracepoint &tp, std::string &error) const;

  // Whether it declares a tracepoint of `system`.
  bool has_system(const std::string &system) const;
  // From a given list of objects (for tests).
  static std::unique_ptr<Catalog> from_objects(const std::vector<std::string> &objects,
                                               std::string &error);

private:
  struct ObjectInfo {
    std::shared_ptr<debuginfo::TypeTable> types;
    std::map<std::string, TracepointProto> protos; // by tracepoint name
    std::string error;
    bool loaded = false;
  };
  void load_object(const std::string &path, ObjectInfo &info) const;

  std::vector<Tracepoint> tracepoints_;
  mutable std::map<std::string, ObjectInfo> objects_;
};

// The catalogs one session has read, by release, arch and system asked
// for: resolution asks once per probe point. Owned by the driver and
// reached through probes::ResolveEnv::tracepoints, like the kernel's other
// debuginfo, so nothing is kept beyond a session.
class Catalogs {
public:
  // The catalog of `target`: with a `system` ("sched"), one that holds at
  // least that system's tracepoints (compiling only its header when that
  // suffices), else all. Null with `error` set when no query object could
  // be had.
  const Catalog *of(const Target &target, const std::string &system, bool verbose,
                    std::string &error);

private:
  std::map<std::string, std::unique_ptr<Catalog>> catalogs_;
};

} // namespace stap::tracequery
