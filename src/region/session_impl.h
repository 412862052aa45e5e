#pragma once
// The state behind a Session: its owner thread, reader and method, the named
// regions with their totals and the stack of open regions. Tests and the
// benchmark build sessions on their own readers with Impl::wrap.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "region/counter_reader.h"
#include "region/method.h"
#include "topdown/region.hpp"

namespace topdown::region {

// Deeper nesting than this is almost surely a missing end().
constexpr std::size_t kMaxDepth = 64;

struct Session::Impl {
  // `value_count` counters are read per snapshot; the reader keeps what it
  // reads (the perf group) open for as long as the session lives.
  Impl(std::unique_ptr<CounterReader> reader, std::unique_ptr<Method> method, std::size_t value_count,
       SessionInfo info);

  // The Session over `impl`. A nested class may use Session's private
  // constructor, so the public header needs no hook for this.
  static Session wrap(std::unique_ptr<Impl> impl) { return Session(std::move(impl)); }

  RegionId region(std::string_view name);
  void begin(RegionId id);
  void end();
  // end() without throwing (for Scope's destructor): misuse is kept as a
  // warning of the innermost region, or of the session.
  void end_noexcept() noexcept;
  std::vector<RegionResult> results() const;

  void check_owner() const;

  struct Region {
    std::string name;
    int parent = -1;  // index of the enclosing region at the first call
    bool parent_known = false;
    Totals totals;
    std::vector<std::string> warnings;
  };
  struct Open {
    uint32_t region = 0;
    Snapshot start;
  };

  std::thread::id owner;
  std::unique_ptr<CounterReader> reader;
  std::unique_ptr<Method> method;
  std::size_t value_count;
  SessionInfo info;
  std::vector<Region> regions;
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view name) const { return std::hash<std::string_view>{}(name); }
  };
  std::unordered_map<std::string, uint32_t, NameHash, std::equal_to<>> ids;
  // Fixed storage, so that begin() and end() neither allocate nor clear
  // snapshots: their cost is what the library adds to every region.
  std::array<Open, kMaxDepth> stack;
  std::size_t depth = 0;
  Snapshot ending;
  std::vector<std::string> session_warnings;
};

}  // namespace topdown::region
