#pragma once
// Live collection: count events with perf_event_open on a workload that
// topdown starts itself, from its exec to its exit.
#include <linux/perf_event.h>

#include <cerrno>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"
#include "counts/counts.h"
#include "events/event.h"

namespace topdown::collect {

// events[0] leads; the kernel schedules a group onto the counters as a unit,
// so ratios between its members are measured over the same time.
struct CounterGroup {
  std::vector<events::Encoding> events;
};

struct Options {
  bool count_children = true;   // inherit to threads and child processes
  bool include_kernel = false;  // user space only by default: works with perf_event_paranoid=2
};

struct WorkloadResult {
  counts::Sample sample;      // per Encoding::name: summed value, time_enabled, time_running
  int exit_code = 0;          // the workload's exit status, or 128+signal when killed
  std::optional<int> signal;  // the signal that killed it
  double elapsed_s = 0;       // wall time from exec to exit
};

// The command could not be started. Its exit_status() follows env(1) and
// timeout(1): 127 when it was not found, 126 when it could not be executed.
class CommandNotStarted : public Error {
 public:
  CommandNotStarted(const std::string& what, int err) : Error(what), errno_(err) {}
  int exit_status() const { return errno_ == ENOENT ? 127 : 126; }

 private:
  int errno_;
};

// Forks, opens every group on the child (pid = child, cpu = -1) while it
// waits, then lets it execvp(argv) (no shell). Counters are enabled by the
// exec, so only the workload (with its threads and children) is counted.
// Waits for it, reads each counter and returns the counts. The workload's
// stdin/stdout/stderr are inherited; SIGINT and SIGTERM sent to topdown
// meanwhile are forwarded to it. With no groups it just runs the command.
// Throws topdown::Error when the command cannot be run or a counter cannot
// be opened (see explain_open_failure); the child is always reaped.
WorkloadResult run_workload(const std::vector<std::string>& argv, const std::vector<CounterGroup>& groups,
                            const Options& options = {});

// The perf_event_attr for one event. Only a group leader is created disabled
// and enabled by exec; members follow their leader.
perf_event_attr make_attr(const events::Encoding& encoding, const Options& options, bool is_leader);

// True when the kernel exposes a core CPU PMU ("cpu", or "cpu_core"/"cpu_atom"
// on hybrid Intel) under `sysfs_devices`.
bool pmu_available(const std::filesystem::path& sysfs_devices = "/sys/bus/event_source/devices");

// One line saying why perf_event_open failed with `err` for `encoding` and
// what to do about it. `paranoid` is the content of
// /proc/sys/kernel/perf_event_paranoid (empty when unreadable).
std::string explain_open_failure(int err, const events::Encoding& encoding, const std::filesystem::path& sysfs_devices,
                                 const std::string& paranoid);

}  // namespace topdown::collect
