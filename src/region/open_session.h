#pragma once
// Opening a session: which counters to count for this CPU (Intel's
// PERF_METRICS, or the CPU's model planned into one group), opening them, and
// choosing the cheaper reader by timing both.
#include <linux/perf_event.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cpu/cpu_info.h"
#include "model/model.h"
#include "perf/event.h"
#include "perf/group.h"
#include "region/counter_reader.h"
#include "region/method.h"
#include "region/perf_metrics.h"
#include "region/session_impl.h"
#include "schedule/plan.h"

namespace topdown::region {

struct Counting {
  std::vector<perf::Event> events;     // leader first; names for messages and info
  std::vector<perf_event_attr> attrs;  // the same events, as one group read with perf::kReadGroup
  std::unique_ptr<Method> method;
  bool perf_metrics = false;  // the group's fields reset on read()
  std::string method_name;    // "perf-metrics" or "model <name>"
  std::string title;
};

// Throws InvalidArgument for options no session can have (a level outside 1-2).
void check_options(const Options& options);

// The model of Options::model_file when one is given; else PERF_METRICS when
// this is an Intel CPU whose kernel offers it (`support`), otherwise the
// CPU's model. Throws region::Error: InvalidArgument for a level outside 1-2,
// UnsupportedCpu, Model, DoesNotFit (the level needs more than one group of
// the counters that really count).
Counting plan_counting(const cpu::CpuInfo& cpu, const std::optional<metrics::Support>& support, const Options& options);

// Auto takes the cheaper of the usable readers; a forced reader that is not
// usable (nullopt time) throws ReaderUnavailable.
Reader choose_reader(ReaderChoice choice, std::optional<double> rdpmc_ns, std::optional<double> read_ns);

// Where the library finds its models: $TOPDOWN_MODELS, then
// share/topdown/models beside the installed library (or beside the program
// the static library is linked into), then the prefix it was configured for.
std::filesystem::path model_dir();

// The counter group open and enabled on the calling thread, with both its
// readers. Throws region::Error.
struct OpenCounters {
  Counting counting;
  std::shared_ptr<perf::Group> group;
  std::unique_ptr<CounterReader> read_reader;
  std::unique_ptr<CounterReader> rdpmc_reader;  // null: rdpmc cannot read the group here
};
OpenCounters open_counters(const Options& options);

// A session over `counters` reading with info.reader (which must be usable).
std::unique_ptr<Session::Impl> start_session(OpenCounters counters, SessionInfo info);

// Opens the counters, times both readers and starts a session with the
// cheaper one (or the forced one). Throws region::Error.
std::unique_ptr<Session::Impl> open_session(const Options& options);

}  // namespace topdown::region
