// collect(): intervals, attaching to running processes, system-wide counting
// and stop signals, with software events, which count without a PMU. The same
// code paths count hardware events on a machine with one.
#include <gtest/gtest.h>
#include <sched.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <fstream>
#include <thread>

#include "../support/scratch_cgroup.h"
#include "collect/collect.h"
#include "collect/process.h"
#include "common/error.h"
#include "test_support.h"

extern char** environ;

namespace topdown::collect {
namespace {

const events::Encoding kTaskClock = testing::software_event("task-clock", PERF_COUNT_SW_TASK_CLOCK);
const events::Encoding kCpuClock = testing::software_event("cpu-clock", PERF_COUNT_SW_CPU_CLOCK);
const events::Encoding kPageFaults = testing::software_event("page-faults", PERF_COUNT_SW_PAGE_FAULTS);

// Busy in user space for `seconds`, then exits with timeout's 124.
std::vector<std::string> busy_for(const std::string& seconds) {
  return {"timeout", seconds, "sh", "-c", "while :; do :; done"};
}

// A process the test starts itself, to attach to; killed and reaped at the end.
class RunningProcess {
 public:
  explicit RunningProcess(const std::vector<std::string>& argv) {
    std::vector<char*> args;
    for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    // In its own process group, so that killing the group ends its children too.
    posix_spawnattr_t attr;
    ::posix_spawnattr_init(&attr);
    ::posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    ::posix_spawnattr_setpgroup(&attr, 0);
    if (::posix_spawnp(&pid_, args[0], nullptr, &attr, args.data(), environ) != 0) pid_ = 0;
    ::posix_spawnattr_destroy(&attr);
  }
  ~RunningProcess() {
    if (pid_ <= 0) return;
    ::kill(-pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = 0;
};

// Once `process` (whose script stops itself first) has stopped, moves it
// into `cgroup` and lets it go on: none of its time is spent elsewhere.
// False when it was not started or could not be moved.
bool continue_in_cgroup(const RunningProcess& process, const topdown::testing::ScratchCgroup& cgroup) {
  int status = 0;
  if (process.pid() <= 0 || ::waitpid(process.pid(), &status, WUNTRACED) != process.pid()) return false;
  if (!cgroup.add(process.pid())) return false;
  return ::kill(process.pid(), SIGCONT) == 0;
}

// Sends `signal` to this process after `delay`.
std::thread signal_after(int signal, std::chrono::milliseconds delay) {
  return std::thread([=] {
    std::this_thread::sleep_for(delay);
    ::kill(::getpid(), signal);
  });
}

bool system_wide_permitted() {
  perf_event_attr attr = make_attr(kCpuClock, Options{}, false);
  const long fd = ::syscall(SYS_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
  if (fd < 0) return false;
  ::close(static_cast<int>(fd));
  return true;
}

constexpr const char* kSystemWideNotPermitted =
    "counting a whole CPU is not permitted for this user (needs kernel.perf_event_paranoid <= 0 or CAP_PERFMON)";

TEST(CollectIntervals, ATwoSecondRunsIntervalsAddUpToTheWhole) {
  if (!testing::perf_events_permitted()) GTEST_SKIP() << testing::kNotPermitted;
  std::vector<Interval> intervals;
  IntervalOptions options;
  options.period = std::chrono::milliseconds(200);
  options.on_interval = [&](const Interval& interval) { intervals.push_back(interval); };
  const WorkloadResult result =
      collect(Target{busy_for("2"), {}, {}, {}}, {CounterGroup{{kTaskClock, kPageFaults}}}, Options{}, options);
  EXPECT_EQ(result.exit_code, 124);  // timeout's status when it stopped the loop
  // Ten ticks; on a busy machine a late read takes the ticks missed since
  // the last one into one longer interval (the timer's expirations), so
  // there may be fewer, never more, and still more than one.
  EXPECT_GE(intervals.size(), 2u);
  EXPECT_LE(intervals.size(), 12u);

  counts::Sample added;
  double previous_time = 0;
  double lengths = 0;
  for (const Interval& interval : intervals) {
    EXPECT_GT(interval.time_s, previous_time);
    EXPECT_NEAR(interval.sample.duration_s, interval.time_s - previous_time, 1e-9);
    previous_time = interval.time_s;
    lengths += interval.sample.duration_s;
    for (const auto& [name, count] : interval.sample.events) added.add(name, count);
  }
  EXPECT_NEAR(lengths, result.elapsed_s, 1e-9);
  EXPECT_DOUBLE_EQ(intervals.back().time_s, result.elapsed_s);
  for (const char* event : {"task-clock", "page-faults"}) {
    const counts::Count& whole = result.sample.events.at(event);
    const counts::Count& sum = added.events.at(event);
    EXPECT_EQ(sum.value, whole.value) << event;
    EXPECT_EQ(sum.time_enabled, whole.time_enabled) << event;
    EXPECT_EQ(sum.time_running, whole.time_running) << event;
  }
  // The loop keeps a CPU busy: every full interval counted CPU time.
  for (size_t i = 0; i + 1 < intervals.size(); ++i) {
    EXPECT_GT(intervals[i].sample.events.at("task-clock").value, 0.0) << "interval " << i;
  }
}

TEST(CollectIntervals, WithoutAPeriodThereAreNone) {
  if (!testing::perf_events_permitted()) GTEST_SKIP() << testing::kNotPermitted;
  int calls = 0;
  IntervalOptions options;
  options.on_interval = [&](const Interval&) { ++calls; };
  const WorkloadResult result = collect(Target{{"true"}, {}, {}, {}}, {CounterGroup{{kTaskClock}}}, Options{}, options);
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(calls, 0);
  EXPECT_GT(result.sample.find("task-clock")->value, 0.0);
}

TEST(CollectAttach, CountsARunningProcessUntilItExits) {
  if (!testing::perf_events_permitted()) GTEST_SKIP() << testing::kNotPermitted;
  RunningProcess busy(busy_for("0.6"));
  ASSERT_GT(busy.pid(), 0);
  const WorkloadResult result = collect(Target{{}, {busy.pid()}, {}, {}}, {CounterGroup{{kTaskClock}}}, Options{});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_FALSE(result.stopped_by.has_value());
  EXPECT_GT(result.elapsed_s, 0.3);
  EXPECT_LT(result.elapsed_s, 5.0);
  // timeout waits; its child shell, started before we attached, is not
  // counted, but timeout's own (tiny) CPU time is.
  const counts::Count* task_clock = result.sample.find("task-clock");
  ASSERT_NE(task_clock, nullptr);
  EXPECT_GT(task_clock->time_enabled, 0u);
}

TEST(CollectAttach, CountsEveryThreadAndWhatTheProcessStartsLater) {
  if (!testing::perf_events_permitted()) GTEST_SKIP() << testing::kNotPermitted;
  // The shell waits 0.2 s (while we attach), then starts a busy child.
  RunningProcess shell({"sh", "-c", "sleep 0.2; timeout 0.5 sh -c 'while :; do :; done'; exit 0"});
  ASSERT_GT(shell.pid(), 0);
  const WorkloadResult result = collect(Target{{}, {shell.pid()}, {}, {}}, {CounterGroup{{kTaskClock}}}, Options{});
  EXPECT_GT(result.elapsed_s, 0.5);
  // The busy child inherited the counter: its CPU time is counted (the
  // shell and sleep alone take a few milliseconds; the machine may be busy).
  EXPECT_GT(result.sample.find("task-clock")->value, 0.03e9);
}

TEST(CollectAttach, WithACommandCountsForAsLongAsItRuns) {
  if (!testing::perf_events_permitted()) GTEST_SKIP() << testing::kNotPermitted;
  RunningProcess busy(busy_for("10"));
  ASSERT_GT(busy.pid(), 0);
  const WorkloadResult result =
      collect(Target{{"sh", "-c", "sleep 0.4; exit 3"}, {busy.pid()}, {}, {}}, {CounterGroup{{kTaskClock}}}, Options{});
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_GT(result.elapsed_s, 0.35);
  EXPECT_LT(result.elapsed_s, 5.0);
  EXPECT_EQ(::kill(busy.pid(), 0), 0) << "the attached process keeps running";
}

TEST(CollectAttach, ThreadsOfAProcessStartWithItself) {
  std::atomic<bool> done{false};
  std::thread worker([&] {
    while (!done) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  });
  const std::vector<pid_t> threads = threads_of(::getpid());
  done = true;
  worker.join();
  ASSERT_GE(threads.size(), 2u);
  EXPECT_EQ(threads.front(), ::getpid());
}

TEST(CollectAttach, NoSuchProcessIsAnError) {
  try {
    collect(Target{{}, {999'999'999}, {}, {}}, {CounterGroup{{kTaskClock}}}, Options{});
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(), "no process 999999999; check the pid given with -p");
  }
}

TEST(CollectAttach, NothingToCountIsAnError) { EXPECT_THROW(collect(Target{}, {}, Options{}), Error); }

TEST(CollectSystemWide, CountsEveryOnlineCpu) {
  if (!system_wide_permitted()) GTEST_SKIP() << kSystemWideNotPermitted;
  const std::vector<int> cpus = select_cpus("");
  ASSERT_FALSE(cpus.empty());
  const WorkloadResult result = collect(Target{{"sleep", "0.3"}, {}, cpus, {}}, {CounterGroup{{kCpuClock}}}, Options{});
  EXPECT_EQ(result.exit_code, 0);
  // cpu-clock counts each CPU's time, idle or not: about CPUs x elapsed.
  const counts::Count* clock = result.sample.find("cpu-clock");
  ASSERT_NE(clock, nullptr);
  const double expected_ns = static_cast<double>(cpus.size()) * result.elapsed_s * 1e9;
  EXPECT_NEAR(clock->value, expected_ns, 0.1 * expected_ns);
  EXPECT_NEAR(static_cast<double>(clock->time_enabled), expected_ns, 0.1 * expected_ns);
}

TEST(CollectSystemWide, EachCpuIsAPlaceAndTheSumAddsThem) {
  if (!system_wide_permitted()) GTEST_SKIP() << kSystemWideNotPermitted;
  const std::vector<int> cpus = select_cpus("");
  const WorkloadResult result = collect(Target{{"sleep", "0.2"}, {}, cpus, {}}, {CounterGroup{{kCpuClock}}}, Options{});
  ASSERT_EQ(result.places.size(), cpus.size());
  double added = 0;
  for (size_t i = 0; i < cpus.size(); ++i) {
    EXPECT_EQ(result.places[i].label, "CPU" + std::to_string(cpus[i]));
    const counts::Count& clock = *result.places[i].sample.find("cpu-clock");
    EXPECT_GT(clock.value, 0.1e9) << result.places[i].label;
    EXPECT_DOUBLE_EQ(result.places[i].sample.duration_s, result.elapsed_s);
    added += clock.value;
  }
  EXPECT_DOUBLE_EQ(result.sample.find("cpu-clock")->value, added);  // never multiplexed: the raw sum
}

TEST(CollectSystemWide, AGroupOfSomeCpusOpensOnThoseAlone) {
  // As a hybrid CPU's core types: one group on CPU 0 only, one on CPU 1 only.
  if (!system_wide_permitted()) GTEST_SKIP() << kSystemWideNotPermitted;
  if (select_cpus("").size() < 2) GTEST_SKIP() << "needs two online CPUs";
  events::Encoding first_type = kCpuClock;
  first_type.name = "cpu_core/cpu-clock/";
  events::Encoding second_type = kCpuClock;
  second_type.name = "cpu_atom/cpu-clock/";
  CounterGroup on_cpu0{{first_type}};
  on_cpu0.cpus = {0};
  CounterGroup on_cpu1{{second_type}};
  on_cpu1.cpus = {1};
  const WorkloadResult result = collect(Target{{"sleep", "0.2"}, {}, {0, 1}, {}}, {on_cpu0, on_cpu1}, Options{});
  ASSERT_EQ(result.places.size(), 2u);
  EXPECT_EQ(result.places[0].label, "CPU0");
  EXPECT_NE(result.places[0].sample.find("cpu_core/cpu-clock/"), nullptr);
  EXPECT_EQ(result.places[0].sample.find("cpu_atom/cpu-clock/"), nullptr);
  EXPECT_EQ(result.places[1].label, "CPU1");
  EXPECT_EQ(result.places[1].sample.find("cpu_core/cpu-clock/"), nullptr);
  EXPECT_NE(result.places[1].sample.find("cpu_atom/cpu-clock/"), nullptr);
}

TEST(CollectAttach, EachThreadIsAPlaceNamedLikePerfPerThread) {
  if (!testing::perf_events_permitted()) GTEST_SKIP() << testing::kNotPermitted;
  RunningProcess busy(busy_for("0.3"));
  ASSERT_GT(busy.pid(), 0);
  const WorkloadResult result = collect(Target{{}, {busy.pid()}, {}, {}}, {CounterGroup{{kTaskClock}}}, Options{});
  ASSERT_EQ(result.places.size(), 1u);  // timeout has one thread
  EXPECT_EQ(result.places[0].label, "timeout-" + std::to_string(busy.pid()));
}

TEST(CollectPlaces, TheWorkloadIsOnePlaceNamedByItsCommand) {
  if (!testing::perf_events_permitted()) GTEST_SKIP() << testing::kNotPermitted;
  const WorkloadResult result = collect(Target{{"/bin/true"}, {}, {}, {}}, {CounterGroup{{kTaskClock}}}, Options{});
  ASSERT_EQ(result.places.size(), 1u);
  EXPECT_EQ(result.places[0].label, "true");
  EXPECT_EQ(result.places[0].sample.find("task-clock")->value, result.sample.find("task-clock")->value);
}

TEST(CollectSystemWide, OneCpuCountsHalfOfTwo) {
  if (!system_wide_permitted()) GTEST_SKIP() << kSystemWideNotPermitted;
  if (select_cpus("").size() < 2) GTEST_SKIP() << "needs two online CPUs";
  const WorkloadResult result = collect(Target{{"sleep", "0.3"}, {}, {1}, {}}, {CounterGroup{{kCpuClock}}}, Options{});
  const double expected_ns = result.elapsed_s * 1e9;
  EXPECT_NEAR(result.sample.find("cpu-clock")->value, expected_ns, 0.1 * expected_ns);
}

TEST(CollectSignals, SigintEndsSystemWideCountingWithTheSummary) {
  if (!system_wide_permitted()) GTEST_SKIP() << kSystemWideNotPermitted;
  struct sigaction before {};
  ::sigaction(SIGINT, nullptr, &before);
  int intervals = 0;
  IntervalOptions options;
  options.period = std::chrono::milliseconds(100);
  options.on_interval = [&](const Interval&) { ++intervals; };
  std::thread interrupter = signal_after(SIGINT, std::chrono::milliseconds(450));
  const WorkloadResult result =
      collect(Target{{}, {}, select_cpus(""), {}}, {CounterGroup{{kCpuClock}}}, Options{}, options);
  interrupter.join();
  EXPECT_EQ(result.stopped_by, SIGINT);
  EXPECT_EQ(result.exit_code, 128 + SIGINT);
  EXPECT_FALSE(result.signal.has_value());
  EXPECT_GE(intervals, 4);
  EXPECT_GT(result.elapsed_s, 0.4);
  EXPECT_GT(result.sample.find("cpu-clock")->value, 0.0);
  struct sigaction after {};
  ::sigaction(SIGINT, nullptr, &after);
  EXPECT_EQ(after.sa_handler, before.sa_handler) << "the stop handler must be removed afterwards";
}

TEST(CollectSignals, SigtermIsForwardedAndTheWorkloadsDeathReported) {
  if (!testing::perf_events_permitted()) GTEST_SKIP() << testing::kNotPermitted;
  int intervals = 0;
  IntervalOptions options;
  options.period = std::chrono::milliseconds(100);
  options.on_interval = [&](const Interval&) { ++intervals; };
  std::thread terminator = signal_after(SIGTERM, std::chrono::milliseconds(350));
  const WorkloadResult result =
      collect(Target{{"sleep", "20"}, {}, {}, {}}, {CounterGroup{{kTaskClock}}}, Options{}, options);
  terminator.join();
  EXPECT_EQ(result.stopped_by, SIGTERM);
  EXPECT_EQ(result.signal, SIGTERM);
  EXPECT_EQ(result.exit_code, 128 + SIGTERM);
  EXPECT_LT(result.elapsed_s, 10.0);
  EXPECT_GE(intervals, 3);
}

TEST(CollectSignals, AWorkloadThatHandlesSigintDecidesTheStatus) {
  if (!testing::perf_events_permitted()) GTEST_SKIP() << testing::kNotPermitted;
  testing::TempDir dir;
  const auto ready = dir.path() / "ready";
  std::thread interrupter([&] {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!std::filesystem::exists(ready) && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ::kill(::getpid(), SIGINT);
  });
  const WorkloadResult result = collect(
      Target{{"sh", "-c", "trap 'exit 7' INT; touch \"$0\"; while :; do sleep 0.05; done", ready.string()}, {}, {}, {}},
      {CounterGroup{{kTaskClock}}}, Options{});
  interrupter.join();
  EXPECT_EQ(result.stopped_by, SIGINT);
  EXPECT_FALSE(result.signal.has_value());
  EXPECT_EQ(result.exit_code, 7);
}

TEST(CombineRuns, EachEventFromTheRunThatCountedIt) {
  WorkloadResult first;
  first.sample.events["a"] = {100, 10, 10};
  first.sample.events["shared"] = {1, 10, 10};
  first.elapsed_s = 1.0;
  first.exit_code = 0;
  WorkloadResult second;
  second.sample.events["b"] = {200, 20, 20};
  second.sample.events["shared"] = {2, 20, 20};
  second.elapsed_s = 2.0;
  second.exit_code = 5;
  const CombinedRuns combined = combine_runs({first, second});
  EXPECT_EQ(combined.result.sample.events.size(), 3u);
  EXPECT_EQ(combined.result.sample.find("a")->value, 100.0);
  EXPECT_EQ(combined.result.sample.find("b")->time_enabled, 20u);
  EXPECT_EQ(combined.result.sample.find("shared")->value, 1.0);
  EXPECT_DOUBLE_EQ(combined.result.elapsed_s, 1.5);
  EXPECT_DOUBLE_EQ(combined.result.sample.duration_s, 1.5);
  EXPECT_EQ(combined.result.exit_code, 5);
  EXPECT_EQ(combined.elapsed_s, (std::vector<double>{1.0, 2.0}));
  EXPECT_THROW(combine_runs({}), Error);
}

TEST(RunOncePerGroup, RunsTheCommandForEachGroup) {
  if (!testing::perf_events_permitted()) GTEST_SKIP() << testing::kNotPermitted;
  testing::TempDir dir;
  const auto log = dir.path() / "runs";
  const CombinedRuns combined =
      run_once_each(Target{{"sh", "-c", "echo run >> \"$0\"", log.string()}, {}, {}, {}},
                    one_group_a_run({CounterGroup{{kTaskClock}}, CounterGroup{{kPageFaults}}}), Options{});
  EXPECT_EQ(testing::read_text(log), "run\nrun\n");
  EXPECT_EQ(combined.elapsed_s.size(), 2u);
  EXPECT_GT(combined.result.sample.find("task-clock")->value, 0.0);
  EXPECT_GT(combined.result.sample.find("page-faults")->value, 0.0);
  EXPECT_EQ(combined.result.exit_code, 0);
}

TEST(RunOncePerGroup, RunsEachListOfGroupsTogether) {
  if (!testing::perf_events_permitted()) GTEST_SKIP() << testing::kNotPermitted;
  testing::TempDir dir;
  const auto log = dir.path() / "runs";
  // Two runs for three groups: task-clock beside cpu-clock, then page-faults alone.
  const CombinedRuns combined = run_once_each(
      Target{{"sh", "-c", "echo run >> \"$0\"", log.string()}, {}, {}, {}},
      {{CounterGroup{{kTaskClock}}, CounterGroup{{kCpuClock}}}, {CounterGroup{{kPageFaults}}}}, Options{});
  EXPECT_EQ(testing::read_text(log), "run\nrun\n");
  ASSERT_EQ(combined.elapsed_s.size(), 2u);
  EXPECT_GT(combined.result.sample.find("task-clock")->value, 0.0);
  EXPECT_GT(combined.result.sample.find("cpu-clock")->value, 0.0);
  EXPECT_GT(combined.result.sample.find("page-faults")->value, 0.0);
}

TEST(RunOncePerGroup, NeedsACommand) {
  try {
    run_once_each(Target{{}, {}, {0}, {}}, one_group_a_run({CounterGroup{{kTaskClock}}}), Options{});
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(), "--no-multiplex runs the command once per counter group; give the command after '--'");
  }
}

// Nanoseconds the tasks of `group` have been on a CPU (their schedstat): what
// a cgroup's cpu-clock can at most count, however busy the machine is.
double cgroup_cpu_ns(const topdown::testing::ScratchCgroup& group) {
  std::ifstream procs(group.directory() / "cgroup.procs");
  double total = 0;
  for (pid_t pid = 0; procs >> pid;) {
    std::ifstream schedstat("/proc/" + std::to_string(pid) + "/schedstat");
    double on_cpu_ns = 0;
    if (schedstat >> on_cpu_ns) total += on_cpu_ns;
  }
  return total;
}

// The cgroup's count against what its tasks really ran meanwhile: never
// more, and most of it (the counting window is most of the measured one).
void expect_counted_what_it_ran(double counted_ns, double ran_ns) {
  EXPECT_GT(counted_ns, 0.5 * ran_ns) << "ran " << ran_ns << " ns";
  EXPECT_LT(counted_ns, 1.02 * ran_ns + 2e6) << "ran " << ran_ns << " ns";
  EXPECT_GT(counted_ns, 1e6);
}

TEST(CollectCgroups, EachCgroupCountsOnlyItsOwnTasksOnEveryCpu) {
  if (!system_wide_permitted()) GTEST_SKIP() << kSystemWideNotPermitted;
  std::string why_not;
  const auto busy_group = topdown::testing::ScratchCgroup::create("busy", why_not);
  const auto idle_group = topdown::testing::ScratchCgroup::create("idle", why_not);
  if (!busy_group || !idle_group) GTEST_SKIP() << why_not;
  {
    RunningProcess busy({"sh", "-c", "kill -STOP $$; while :; do :; done"});
    ASSERT_TRUE(continue_in_cgroup(busy, *busy_group));

    Target target{{"sleep", "0.5"}, {}, select_cpus(""), {}};
    target.cgroups = {Cgroup{busy_group->name(), busy_group->directory()},
                      Cgroup{idle_group->name(), idle_group->directory()}};
    const double ran_before = cgroup_cpu_ns(*busy_group);
    const WorkloadResult result = collect(target, {CounterGroup{{kCpuClock}}}, Options{});
    const double ran_ns = cgroup_cpu_ns(*busy_group) - ran_before;
    ASSERT_EQ(result.places.size(), 2 * target.cpus.size());
    double busy_ns = 0;
    double idle_ns = 0;
    for (const counts::Place& place : result.places) {
      EXPECT_EQ(place.label.rfind("CPU", 0), 0u) << place.label;
      const double ns = place.sample.find("cpu-clock")->value;
      if (place.cgroup == busy_group->name()) {
        busy_ns += ns;
      } else {
        EXPECT_EQ(place.cgroup, idle_group->name());
        idle_ns += ns;
      }
    }
    // One spinning process for the half second sleep ran: up to one CPU's time.
    expect_counted_what_it_ran(busy_ns, ran_ns);
    EXPECT_LT(busy_ns, 0.7e9);
    EXPECT_EQ(idle_ns, 0);
  }
}

// When a cgroup's task is moved to another CPU, the kernel can keep the
// cgroup's counter on the old CPU enabled but not running. Then its enabled
// time can exceed the run (seen: 3.3 s enabled in 0.6 s on 2 CPUs), or a CPU
// can have enabled time and no running time. A software event never shares
// a counter: its count is exact, never scaled by that nor made n/a.
TEST(CollectCgroups, ASoftwareEventOfAMigratingTaskIsExact) {
  if (!system_wide_permitted()) GTEST_SKIP() << kSystemWideNotPermitted;
  const std::vector<int> cpus = select_cpus("");
  if (cpus.size() < 2) GTEST_SKIP() << "one online CPU: nothing to migrate to";
  std::string why_not;
  const auto busy_group = topdown::testing::ScratchCgroup::create("migrating", why_not);
  if (!busy_group) GTEST_SKIP() << why_not;
  // timeout waits in the cgroup while its child spins there.
  RunningProcess busy({"sh", "-c", "kill -STOP $$; exec timeout 5 sh -c 'while :; do :; done'"});
  ASSERT_TRUE(continue_in_cgroup(busy, *busy_group));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::atomic<bool> stop{false};
  std::thread mover([&] {
    for (size_t i = 0; !stop; ++i) {
      cpu_set_t one;
      CPU_ZERO(&one);
      CPU_SET(cpus[i % 2], &one);
      ::sched_setaffinity(busy.pid(), sizeof one, &one);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  Target target{{"sleep", "0.6"}, {}, cpus, {}};
  target.cgroups = {Cgroup{busy_group->name(), busy_group->directory()}};
  const double ran_before = cgroup_cpu_ns(*busy_group);
  const WorkloadResult result = collect(target, {CounterGroup{{kCpuClock}}}, Options{});
  const double ran_ns = cgroup_cpu_ns(*busy_group) - ran_before;
  stop = true;
  mover.join();
  double busy_ns = 0;
  for (const counts::Place& place : result.places) {
    const counts::Count& clock = *place.sample.find("cpu-clock");
    EXPECT_EQ(clock.time_enabled, clock.time_running) << place.label;
    busy_ns += clock.value;
  }
  expect_counted_what_it_ran(busy_ns, ran_ns);
  EXPECT_LT(busy_ns, 0.8e9);
  // A CPU the cgroup never ran on adds nothing, rather than making the sum n/a.
  const auto scaled = result.sample.find("cpu-clock")->scaled();
  ASSERT_TRUE(scaled.has_value());
  EXPECT_DOUBLE_EQ(*scaled, busy_ns);
}

}  // namespace
}  // namespace topdown::collect
