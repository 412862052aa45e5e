#pragma once
// Live collection: count events with perf_event_open on a workload that
// topdown starts itself (from its exec to its exit), on running processes or
// on CPUs, as a whole or interval by interval.
#include <linux/perf_event.h>
#include <sys/types.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "collect/cgroups.h"
#include "collect/run_as.h"
#include "common/error.h"
#include "counts/counts.h"
#include "events/event.h"
#include "perf/open_failure.h"

namespace topdown::collect {

// events[0] leads; the kernel schedules a group onto the counters as a unit,
// so ratios between its members are measured over the same time.
struct CounterGroup {
  std::vector<events::Encoding> events;
  counts::GroupCopies copies{};  // events counted again here as copies (schedule::Group::copies)
  // Counting CPUs (-a, -C), the group opens only on these: a hybrid CPU's
  // core type's PMU exists on that type's CPUs alone. Empty: on every CPU.
  // Sampling (which opens a task on each CPU) keeps to them for a task too.
  std::vector<int> cpus = {};
};

struct Options {
  bool count_children = true;      // inherit to threads and child processes
  bool include_kernel = false;     // user space only by default: works with perf_event_paranoid=2
  std::optional<Identity> run_as;  // who the workload runs as (choose_identity); nullopt: as topdown
};

struct WorkloadResult {
  // Per Encoding::name: the placements' counts added each scaled by its own
  // times (counts::add_scaled), with their summed time_enabled, time_running.
  counts::Sample sample;
  // Each placement's counts, not scaled: "CPU3" per CPU (-a, -C), "COMM-TID"
  // per thread of the processes given (-p), else one for the command (named
  // by its basename) with its threads and children.
  std::vector<counts::Place> places;
  // The workload's exit status, or 128+signal when a signal killed it.
  // Without a workload: 0, or 128+signal when a stop signal ended counting.
  int exit_code = 0;
  std::optional<int> signal;      // the signal that killed the workload
  std::optional<int> stopped_by;  // the stop signal (SIGINT, SIGTERM, ...) topdown received while counting
  double elapsed_s = 0;           // wall time from exec (or the start of counting) to the end
};

// What is counted. With a command and nothing else, the command from its
// exec to its exit, with its threads and children. With pids or CPUs, those
// are counted instead, for as long as the command runs when there is one,
// else until the processes have exited (pids) or a stop signal (CPUs).
// With cgroups, only their tasks are counted on the CPUs, each cgroup apart.
struct Target {
  std::vector<std::string> command;  // run by topdown (execvp, no shell)
  std::vector<pid_t> pids;           // running processes: every thread, and what they start from now on
  std::vector<int> cpus;             // everything on these CPUs (system-wide)
  std::vector<Cgroup> cgroups;       // on each of `cpus`: places labelled "CPU3" with Place::cgroup set
  // Instead of `cgroups`: a tree of cgroups found again at each interval,
  // counted the same way (a cgroup's places come and go with it).
  std::optional<CgroupTree> cgroup_tree = std::nullopt;
  // How `cgroups` or `cgroup_tree` are counted: Bpf or Perf (choose_cgroup_counting).
  CgroupCounting cgroup_counting = CgroupCounting::Perf;
};

// One interval's counts: how much each placement's counters advanced
// (value, time_enabled and time_running deltas) in `places`, their sum as
// WorkloadResult::sample sums them, and in both duration_s, the interval's
// length. Each place's intervals add up to the whole run's place; the sums
// add up to the whole run's sample when each placement was counted the same
// share of every interval (always, without multiplexing).
struct Interval {
  counts::Sample sample;
  std::vector<counts::Place> places;
  double time_s = 0;  // end of the interval, seconds since counting started (microsecond resolution)
};
using IntervalCallback = std::function<void(const Interval&)>;

struct IntervalOptions {
  std::chrono::milliseconds period{0};  // 0: no intervals
  // Called on the collecting thread after each period and once more for the
  // last, shorter interval (when anything was counted in it).
  IntervalCallback on_interval;
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
// stdin/stdout/stderr are inherited. SIGINT, SIGTERM, SIGHUP, SIGPIPE,
// SIGQUIT and SIGUSR1 that topdown gets meanwhile from another process (or
// SIGPIPE from its own write to a closed pipe) are forwarded to it (a Ctrl-C at the terminal
// reaches it directly). With no groups it just runs the command.
// Throws topdown::Error when the command cannot be run or a counter cannot
// be opened (see perf::explain_open_failure); the child is always reaped.
// The same as collect(Target{argv}, groups, options).
WorkloadResult run_workload(const std::vector<std::string>& argv, const std::vector<CounterGroup>& groups,
                            const Options& options = {});

// Counts `target`: opens every group on it (per thread of each pid, or per
// CPU), starts the command if there is one, and reads all counters every
// `intervals.period`. Those signals end counting: without a command at
// once, with one when the command has exited (they are passed on to it as
// run_workload says). Throws like run_workload, and Error for a pid that
// does not exist or a target with nothing to count.
WorkloadResult collect(const Target& target, const std::vector<CounterGroup>& groups, const Options& options,
                       const IntervalOptions& intervals = {});

// --no-multiplex: runs the command once per group, so that no group ever
// shares the counters with another, and combines the runs.
struct CombinedRuns {
  WorkloadResult result;          // every run's events, in the sum and per place; elapsed_s the runs' mean
  std::vector<double> elapsed_s;  // each run's, in order
};
// `runs` lists each run's groups: one group (one_group_a_run), or several
// that never compete for counters (a hybrid CPU's core types' groups, each
// on its own PMU). Stops early (fewer runs than listed) when a run was
// interrupted by a signal. Throws Error when `target` has no command to rerun.
CombinedRuns run_once_each(const Target& target, const std::vector<std::vector<CounterGroup>>& runs,
                           const Options& options);
// Each group in a run of its own.
std::vector<std::vector<CounterGroup>> one_group_a_run(const std::vector<CounterGroup>& groups);
// Each event from the run that counted it (per place: the place of the same
// label in that run); the exit status of the last run.
CombinedRuns combine_runs(const std::vector<WorkloadResult>& runs);

// The CPUs of a -C list ("0-3,6"), checked against the online CPUs; all
// online CPUs for an empty list. Throws Error naming the list.
std::vector<int> select_cpus(std::string_view list, const std::filesystem::path& cpu_dir = "/sys/devices/system/cpu");

// Why the cgroups under `mount` cannot be counted the BPF way here: a build
// without libbpf, missing privileges (root, or CAP_BPF and CAP_PERFMON), a
// cgroup v1 hierarchy, or a kernel that refuses the program or the
// cgroup-switches event; nullopt when it can.
std::optional<std::string> cgroup_counting_unavailable(const std::filesystem::path& mount);

// The way `asked` resolves to for cgroups under `mount`: Automatic is Bpf
// where possible, else Perf. Throws Error saying why when Bpf is asked for
// and impossible.
CgroupCounting choose_cgroup_counting(CgroupCounting asked, const std::filesystem::path& mount);

// When a group's counting starts: at the workload's exec, or when collect
// enables it (attached processes, CPUs).
enum class Start { OnExec, OnEnable };

// The perf_event_attr for one event (read one by one, with its times). Only a
// group leader is created disabled and enabled by exec (or by collect);
// members follow their leader.
perf_event_attr make_attr(const events::Encoding& encoding, const Options& options, bool is_leader,
                          Start start = Start::OnExec);

// True when the kernel exposes a core CPU PMU (perf/open_failure.h).
using perf::pmu_available;

}  // namespace topdown::collect

namespace topdown::collect {

// Opens `event` once, as a trial, and closes it: 0 when the kernel took it,
// else the errno (schedule::TrialOpen). A core event counts the calling
// thread; a PERF_METRICS field opens in a group led by TOPDOWN.SLOTS; an
// uncore event counts its first box on the first CPU of its cpumask.
int trial_open(const events::Encoding& event);

}  // namespace topdown::collect
