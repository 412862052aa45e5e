// The collection loop: start counting, wake on the interval timer, a stop
// signal or the end of the processes counted, read the counters, stop.
#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <optional>

#include "collect/bpf_cgroups.h"
#include "collect/collect.h"
#include "collect/counter_set.h"
#include "collect/followed_cgroups.h"
#include "collect/places.h"
#include "collect/process.h"
#include "collect/stop_signals.h"
#include "common/error.h"

namespace topdown::collect {
namespace {

using Clock = std::chrono::steady_clock;

Fd make_timer(std::chrono::milliseconds period) {
  const int fd = ::timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
  if (fd < 0) throw Error(std::string("cannot create the interval timer: ") + std::strerror(errno));
  Fd timer(fd);
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(period).count();
  itimerspec spec{};
  spec.it_interval.tv_sec = static_cast<time_t>(ns / 1'000'000'000);
  spec.it_interval.tv_nsec = static_cast<long>(ns % 1'000'000'000);
  spec.it_value = spec.it_interval;
  if (::timerfd_settime(timer.get(), 0, &spec, nullptr) != 0) {
    throw Error(std::string("cannot start the interval timer: ") + std::strerror(errno));
  }
  return timer;
}

bool anything_counted(const counts::Sample& delta) {
  for (const auto& [name, count] : delta.events) {
    if (count.time_enabled > 0) return true;
  }
  return false;
}

// Whole microseconds since `start`: interval times and lengths print as
// short decimals, the same in every format.
int64_t microseconds_since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - start).count();
}

double seconds(int64_t microseconds) { return static_cast<double>(microseconds) / 1e6; }

void set_exit_status(int status, WorkloadResult& result) {
  if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
    result.exit_code = 128 + WTERMSIG(status);
  } else {
    result.exit_code = WEXITSTATUS(status);
  }
}

// Descriptors of the cgroups' directories, which perf_event_open takes as
// the pid of a cgroup's events.
std::vector<Fd> open_cgroups(const std::vector<Cgroup>& cgroups) {
  std::vector<Fd> directories;
  for (const Cgroup& cgroup : cgroups) {
    const int fd = ::open(cgroup.directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
      throw Error(
          fmt::format("cannot open cgroup {} ({}): {}", cgroup.name, cgroup.directory.string(), std::strerror(errno)));
    directories.emplace_back(fd);
  }
  return directories;
}

std::vector<Placement> placements_for(const Target& target, const std::optional<Workload>& workload,
                                      const std::vector<Fd>& cgroup_directories) {
  std::vector<Placement> placements;
  if (!target.cgroups.empty()) {
    for (size_t i = 0; i < target.cgroups.size(); ++i) {
      for (const int cpu : target.cpus) {
        placements.push_back(
            {cgroup_directories[i].get(), cpu, false, "CPU" + std::to_string(cpu), target.cgroups[i].name});
      }
    }
  } else if (!target.cpus.empty()) {
    for (const int cpu : target.cpus) placements.push_back({-1, cpu, false, "CPU" + std::to_string(cpu), {}});
  } else if (!target.pids.empty()) {
    for (const pid_t pid : target.pids) {
      for (const pid_t tid : threads_of(pid)) {
        placements.push_back({tid, -1, true, command_of(tid) + "-" + std::to_string(tid), {}});
      }
    }
  } else {
    // Its threads and children are counted together: one placement.
    placements.push_back({workload->pid(), -1, false, std::filesystem::path(target.command.front()).filename(), {}});
  }
  return placements;
}

// Each place's running totals (CounterSet::read, FollowedCgroups::read).
using ReadCounters = std::function<std::vector<counts::Place>()>;

// Reads the counters on the loop's wake-ups and hands out the intervals.
class IntervalReader {
 public:
  IntervalReader(ReadCounters read, const IntervalOptions& options, Clock::time_point start)
      : read_(std::move(read)), options_(options), start_(start) {}

  void tick() { emit(read_(), microseconds_since(start_), /*even_if_idle=*/true); }

  // The running totals of each placement at the end and their sum; the last,
  // shorter interval is handed out when anything was counted in it.
  void finish(int64_t elapsed_us, WorkloadResult& result) {
    result.places = read_();
    if (options_.period.count() > 0) emit(result.places, elapsed_us, /*even_if_idle=*/false);
    set_duration(result.places, seconds(elapsed_us));
    result.sample = sum_of_places(result.places);
    result.sample.duration_s = seconds(elapsed_us);
  }

 private:
  // Each placement's delta first, then their scaled sum: the sum's own delta
  // would mix placements counted different shares of the interval.
  void emit(const std::vector<counts::Place>& now, int64_t time_us, bool even_if_idle) {
    if (time_us <= previous_us_) return;
    Interval interval;
    interval.places = deltas_since(now, previous_);
    set_duration(interval.places, seconds(time_us - previous_us_));
    interval.sample = sum_of_places(interval.places);
    interval.sample.duration_s = seconds(time_us - previous_us_);
    interval.time_s = seconds(time_us);
    if (!even_if_idle && !anything_counted(interval.sample)) return;
    previous_ = now;
    previous_us_ = time_us;
    if (options_.on_interval) options_.on_interval(interval);
  }

  ReadCounters read_;
  const IntervalOptions& options_;
  Clock::time_point start_;
  std::vector<counts::Place> previous_;
  int64_t previous_us_ = 0;
};

// Waits, reading intervals on the timer, until counting must end: when the
// command exits if there is one, else when every attached process has
// exited or a stop signal came. Returns the last stop signal received.
std::optional<int> wait_for_end(StopSignals& signals, const Fd* timer, const std::vector<int>& processes,
                                bool has_workload, IntervalReader& reader) {
  std::vector<pollfd> fds = {{signals.fd(), POLLIN, 0}, {timer ? timer->get() : -1, POLLIN, 0}};
  constexpr size_t kFirstProcess = 2;
  for (const int process : processes) fds.push_back({process, POLLIN, 0});
  size_t running = processes.size();
  std::optional<int> stop_signal;
  bool done = false;
  while (!done) {
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      throw Error(std::string("cannot wait while counting: ") + std::strerror(errno));
    }
    if (fds[0].revents != 0) {
      if (const auto received = signals.take()) stop_signal = received;
      done = !has_workload;  // the command got the signal: wait for it to end
    }
    if (fds[1].revents != 0) {
      uint64_t expirations = 0;
      if (::read(fds[1].fd, &expirations, sizeof expirations) == sizeof expirations) reader.tick();
    }
    for (size_t i = kFirstProcess; i < fds.size(); ++i) {
      if (fds[i].revents == 0) continue;
      fds[i].fd = -1;  // ended: poll skips it from now on
      done = done || has_workload || --running == 0;
    }
  }
  return stop_signal;
}

}  // namespace

WorkloadResult collect(const Target& target, const std::vector<CounterGroup>& groups, const Options& options,
                       const IntervalOptions& intervals) {
  if (target.command.empty() && target.pids.empty() && target.cpus.empty()) {
    throw Error("no workload to run: give the command after '--' (or -p PID, -a)");
  }
  std::optional<Workload> workload;
  if (!target.command.empty()) workload.emplace(target.command, options.run_as);
  std::vector<Fd> attached;
  for (const pid_t pid : target.pids) attached.push_back(watch_process(pid));
  std::vector<int> processes;
  if (workload) {
    processes.push_back(workload->exit_fd());
  } else {
    for (const Fd& process : attached) processes.push_back(process.get());
  }

  if ((!target.cgroups.empty() || target.cgroup_tree) && target.cpus.empty()) {
    throw Error("internal: cgroups are counted on CPUs, and none was given");
  }
  const bool counts_the_command = target.pids.empty() && target.cpus.empty();
  Options counting = options;
  if (!target.cpus.empty()) counting.count_children = false;  // a CPU counts everything on it anyway
  std::vector<Fd> cgroup_directories;                         // the perf-event way's, open while its counters are
  std::optional<CounterSet> counters;
  std::optional<FollowedCgroups> followed;
  std::optional<BpfCgroups> bpf;
  ReadCounters read;
  const bool counts_cgroups = !target.cgroups.empty() || target.cgroup_tree;
  if (counts_cgroups && target.cgroup_counting == CgroupCounting::Bpf) {
    read = [&bpf] { return bpf->read(); };
    bpf.emplace(target.cgroups, target.cgroup_tree, target.cpus, groups, counting);
  } else if (target.cgroup_tree) {
    read = [&followed] { return followed->read(); };
    followed.emplace(*target.cgroup_tree, target.cpus, groups, counting);
  } else {
    read = [&counters] { return counters->read(); };
    cgroup_directories = open_cgroups(target.cgroups);
    counters.emplace(groups, placements_for(target, workload, cgroup_directories), counting,
                     counts_the_command ? Start::OnExec : Start::OnEnable);
  }

  WorkloadResult result;
  {
    StopSignals signals(workload ? workload->pid() : 0);
    // The start is taken before the timer is armed, so no interval is
    // reported shorter than its period.
    const auto start = Clock::now();
    std::optional<Fd> timer;
    if (intervals.period.count() > 0) timer = make_timer(intervals.period);
    if (followed) followed->enable();
    if (bpf) bpf->enable();
    if (counters && !counts_the_command) counters->enable();
    if (workload) workload->release();
    IntervalReader reader(read, intervals, start);
    result.stopped_by = wait_for_end(signals, timer ? &*timer : nullptr, processes, workload.has_value(), reader);
    const int64_t elapsed_us = microseconds_since(start);
    result.elapsed_s = seconds(elapsed_us);
    reader.finish(elapsed_us, result);
  }
  if (workload) {
    set_exit_status(workload->reap(), result);
  } else if (result.stopped_by) {
    result.exit_code = 128 + *result.stopped_by;
  }
  return result;
}

WorkloadResult run_workload(const std::vector<std::string>& argv, const std::vector<CounterGroup>& groups,
                            const Options& options) {
  if (argv.empty() || argv.front().empty()) throw Error("no workload to run: give the command after '--'");
  return collect(Target{argv, {}, {}, {}}, groups, options);
}

}  // namespace topdown::collect
