#pragma once
// topdown region library, C++ API: the TopDown (TMA) breakdown of code
// regions, measured from user space on the calling thread.
//
//   topdown::region::Session session({.level = 2});     // throws region::Error
//   const auto work = session.region("work");
//   for (...) {
//     topdown::region::Scope scope(session, work);      // begin ... end
//     do_work();
//   }
//   for (const auto& result : session.results()) ...    // nodes as `topdown stat` shows them
//
// Regions nest: an inner region's slots are also counted in the enclosing
// ones. A named region adds up all its calls.
//
// Threads: a Session belongs to the thread that constructed it and counts that
// thread only (perf events opened with pid 0, cpu -1). region(), begin() and
// end() on any other thread throw Error(ErrorCode::WrongThread) and change
// nothing. results(), info() and the destructor may run on another thread once
// the owner has stopped using the session (after a join, say), never at the
// same time as the owner's calls. To measure several threads give each its own
// Session; sessions are independent. See docs/region-library.md.
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace topdown::region {

// The same values as the C API's TD_REGION_* codes.
enum class ErrorCode : int {
  Ok = 0,
  NoPmu = 1,              // the kernel exposes no CPU performance counters (a VM without vPMU)
  NotPermitted = 2,       // kernel.perf_event_paranoid too high, no CAP_PERFMON
  UnsupportedCpu = 3,     // no TopDown model or PERF_METRICS for this CPU
  DoesNotFit = 4,         // the level needs more counters than one group has here
  ReaderUnavailable = 5,  // the forced reader cannot be used on this machine
  OpenFailed = 6,         // perf_event_open failed for another reason
  WrongThread = 7,        // the session belongs to another thread
  BadNesting = 8,         // end() without begin(), or regions nested too deep
  InvalidArgument = 9,    // an unknown region id, a level outside 1-2
  Model = 10,             // the model files are missing or broken
  Internal = 11,
};

class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ErrorCode code() const { return code_; }

 private:
  ErrorCode code_;
};

enum class ReaderChoice {
  Auto,   // time both at open and use the cheaper
  Rdpmc,  // rdpmc through the perf mmap page
  Read,   // read() of the counter group
};
enum class Reader { Rdpmc, Read };

struct Options {
  int level = 1;  // 1 or 2
  ReaderChoice reader = ReaderChoice::Auto;
  bool include_kernel = false;  // user mode only by default: works with perf_event_paranoid 2
  // Where the *.model files are; empty: $TOPDOWN_MODELS, then the installed
  // models (<prefix>/share/topdown/models).
  std::string models_dir;
  // A model file (docs/model-format.md) to count instead of the CPU's model
  // or PERF_METRICS; empty: chosen by CPU. A model of the kernel's software
  // events (tests/data/software.model in the sources) opens on any machine,
  // without a PMU, to try the library or measure its cost.
  std::string model_file;
  // Intel PERF_METRICS read with rdpmc: reset the counters after this many
  // slots to keep the 8-bit fields precise; 0 = the default (2^32 slots,
  // a few hundred milliseconds).
  uint64_t reset_slots = 0;
};

struct RegionId {
  uint32_t index = 0;
};

struct NodeValue {
  std::string name;         // TMA name: Frontend_Bound, Memory_Bound, ...
  std::string vendor_name;  // the vendor's name ("" if none)
  std::string parent;       // "" for level 1
  int level = 0;
  std::optional<double> fraction;  // share of the region's slots; nullopt = n/a
  std::optional<double> slots;     // the same as a slot count
  bool over_threshold = false;     // from the model's thresholds (none on the PERF_METRICS path)
  bool bottleneck = false;
};

struct RegionResult {
  std::string name;
  std::string parent;  // the enclosing region at its first call, "" at the top
  int depth = 0;
  uint64_t calls = 0;            // begin/end pairs whose counts are included
  uint64_t dropped_calls = 0;    // pairs whose counts could not be read (docs/region-library.md)
  std::optional<double> slots;   // pipeline slots of all calls
  double counted_share = 1.0;    // 1 = the counters ran the whole time
  std::vector<NodeValue> nodes;  // tree order, levels 1..Options::level
  std::vector<std::string> warnings;

  const NodeValue* find(std::string_view node) const;
};

struct SessionInfo {
  std::string method;  // "perf-metrics" or "model <name>"
  std::string title;   // the model's or CPU's title
  Reader reader = Reader::Read;
  // One read of all counters, measured at open (nullopt: not usable here).
  std::optional<double> rdpmc_ns;
  std::optional<double> read_ns;
  std::vector<std::string> events;  // counted, leader first
};

class Session {
 public:
  // Opens the counters on the calling thread. Throws Error (NoPmu,
  // NotPermitted, UnsupportedCpu, DoesNotFit, ...) with a one-line message.
  explicit Session(const Options& options = {});
  // The same without exceptions: nullopt and *error set on failure.
  static std::optional<Session> try_open(const Options& options, std::optional<Error>* error = nullptr) noexcept;

  Session(Session&&) noexcept;
  Session& operator=(Session&&) noexcept;
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ~Session();

  // The id of a named region (registered on first use).
  RegionId region(std::string_view name);
  void begin(RegionId id);
  void begin(std::string_view name);
  // Ends the innermost open region.
  void end();

  std::vector<RegionResult> results() const;  // in the order regions were registered
  std::optional<RegionResult> result(std::string_view name) const;
  const SessionInfo& info() const;

  struct Impl;  // opaque: the library's own

 private:
  explicit Session(std::unique_ptr<Impl> impl);
  friend class Scope;
  std::unique_ptr<Impl> impl_;
};

// begin() now, end() when the scope closes. Misuse found at the end (the
// region was already ended by hand) is reported in that region's warnings.
class Scope {
 public:
  Scope(Session& session, RegionId id) : session_(session) { session_.begin(id); }
  Scope(Session& session, std::string_view name) : session_(session) { session_.begin(name); }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;
  ~Scope();

 private:
  Session& session_;
};

// The result as an indented text tree, one node a line, for printing.
std::string to_text(const RegionResult& result);

}  // namespace topdown::region
