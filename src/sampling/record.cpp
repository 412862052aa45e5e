// The recording loop: open every group on every place, one ring per CPU,
// start the workload, and copy the rings into the data file until it ends.
#include <fmt/format.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <map>

#include "collect/process.h"
#include "collect/stop_signals.h"
#include "common/error.h"
#include "perf/group.h"
#include "perf/open_failure.h"
#include "perf/ring_buffer.h"
#include "perf/user_registers.h"
#include "recording/data_format.h"
#include "sampling/data_writer.h"
#include "sampling/running_processes.h"
#include "sampling/sampling.h"

namespace topdown::sampling {
namespace {

using Clock = std::chrono::steady_clock;

std::string read_paranoid() {
  std::ifstream in("/proc/sys/kernel/perf_event_paranoid");
  std::string value;
  in >> value;
  return value;
}

// perf_event_open's (pid, cpu) of one place. Sampling is always per CPU:
// the kernel refuses a ring on an event that follows children on any CPU
// (inherit with cpu -1), and one ring per CPU lets every group there share it.
struct Place {
  pid_t pid = -1;
  int cpu = 0;
  bool follows_threads = false;  // inherit: each thread's values count apart
};

std::vector<Place> places_of(const collect::Target& target, pid_t workload) {
  std::vector<Place> places;
  if (!target.cpus.empty()) {
    for (const int cpu : target.cpus) places.push_back({-1, cpu, false});
    return places;
  }
  const std::vector<int> cpus = collect::select_cpus("");
  std::vector<pid_t> tasks;
  if (workload > 0) {
    tasks.push_back(workload);
  } else {
    for (const pid_t pid : target.pids) {
      for (const pid_t tid : collect::threads_of(pid)) tasks.push_back(tid);
    }
  }
  for (const pid_t task : tasks) {
    for (const int cpu : cpus) places.push_back({task, cpu, true});
  }
  return places;
}

// A hybrid CPU's core type's group opens on that type's CPUs alone.
bool opens_on(const collect::CounterGroup& group, int cpu) {
  return group.cpus.empty() || std::find(group.cpus.begin(), group.cpus.end(), cpu) != group.cpus.end();
}

struct OpenGroup {
  uint32_t group;  // index into the groups recorded
  perf::Group events;
};

// Every group on every place, and the ring of each CPU that their records
// go to.
class Samplers {
 public:
  Samplers(const std::vector<collect::CounterGroup>& groups, const std::vector<Place>& places, const Options& options,
           bool start_on_exec) {
    for (const Place& place : places) {
      for (uint32_t group = 0; group < groups.size(); ++group) {
        if (!opens_on(groups[group], place.cpu)) continue;
        OpenGroup open{group, perf::Group({place.pid, place.cpu})};
        if (!open_group(groups[group], place, options, start_on_exec, open.events)) break;  // the thread has gone
        attach_to_ring(place.cpu, open.events.leader(), options.ring_pages);
        streams_.push_back({group, ids_of(open.events), place.follows_threads});
        open_.push_back(std::move(open));
      }
    }
    if (open_.empty()) throw Error("nothing to sample: every thread to sample has exited");
  }

  const std::vector<recording::Stream>& streams() const { return streams_; }
  std::map<int, perf::RingBuffer>& rings() { return rings_; }
  // The descriptors poll() waits on for a half-full ring.
  std::vector<int> ring_fds() const {
    std::vector<int> fds;
    for (const auto& [cpu, leader] : ring_leaders_) fds.push_back(leader);
    return fds;
  }

  void enable() const {
    for (const OpenGroup& open : open_) {
      if (const int err = open.events.enable())
        throw Error(std::string("cannot start sampling: ") + std::strerror(err));
    }
  }
  void disable() const {
    for (const OpenGroup& open : open_) open.events.disable();
  }

  // Each group's enabled and running time over its places (children that
  // have exited included: the kernel folds their times into the event they
  // were inherited from). A CPU's places add up. A task is opened on every
  // CPU, and each of those events is enabled whenever the task runs
  // anywhere but runs only while it is on its own CPU: the task's enabled
  // time is one of them (the longest), its running time their sum.
  std::vector<recording::GroupTimes> times(std::size_t groups) {
    std::vector<recording::GroupTimes> times(groups);
    std::map<std::pair<uint32_t, pid_t>, recording::GroupTimes> per_task;
    for (OpenGroup& open : open_) {
      std::vector<uint64_t> values(open.events.size());
      perf::Times read;
      if (open.events.read(values, read) != 0) continue;  // a vanished thread's group counts nothing more
      const pid_t task = open.events.target().pid;
      if (task < 0) {
        times[open.group].enabled += read.enabled;
        times[open.group].running += read.running;
        continue;
      }
      recording::GroupTimes& task_times = per_task[{open.group, task}];
      task_times.enabled = std::max(task_times.enabled, read.enabled);
      task_times.running += read.running;
    }
    for (const auto& [key, task_times] : per_task) {
      times[key.first].enabled += task_times.enabled;
      times[key.first].running += std::min(task_times.running, task_times.enabled);
    }
    return times;
  }

 private:
  // Opens the group's events; false when the place's thread has exited.
  bool open_group(const collect::CounterGroup& group, const Place& place, const Options& options, bool start_on_exec,
                  perf::Group& events) {
    for (const events::Encoding& encoding : group.events) {
      if (encoding.type == events::Encoding::kAbsentPmu || encoding.uncore) {
        throw Error("cannot sample '" + encoding.name +
                    "': it counts on a PMU of the whole socket, which cannot be sampled per task; choose a model "
                    "or level without it");
      }
      const bool leader = events.empty();
      const bool tracks_tasks = leader && !rings_.contains(place.cpu);
      const perf::Event event = encoding.perf_event(options.include_kernel);
      perf_event_attr attr = perf::make_attr(event, {.read_format = perf::kReadGroup,
                                                     .disabled = leader,
                                                     .enable_on_exec = leader && start_on_exec,
                                                     .inherit = place.follows_threads});
      perf::CallStacks call_stacks = options.call_stacks;
      call_stacks.kernel_frames = options.include_kernel;
      perf::set_sampling(attr, {.leader = leader,
                                .rate = options.rate,
                                .tracks_tasks = tracks_tasks,
                                .build_id = tracks_tasks && build_id_,
                                .wakeup_bytes = wakeup_bytes(options.ring_pages),
                                .call_stacks = call_stacks});
      int err = events.add(attr);
      if (err == EINVAL && attr.build_id != 0) {
        build_id_ = false;  // before Linux 5.12: device and inode instead
        attr.build_id = 0;
        err = events.add(attr);
      }
      if (err == ESRCH && place.pid > 0 && leader) return false;
      if (err == EOVERFLOW && attr.sample_max_stack > 1) {
        throw Error(
            fmt::format("--max-stack {} is more than the kernel allows (kernel.perf_event_max_stack); give "
                        "a smaller --max-stack or raise the sysctl",
                        attr.sample_max_stack));
      }
      if (err != 0) {
        throw Error(fmt::format("{}{}", place.pid < 0 ? fmt::format("CPU {}: ", place.cpu) : "",
                                perf::explain_open_failure(err, event, perf::kSysfsDevices, read_paranoid())));
      }
    }
    return true;
  }

  static uint32_t wakeup_bytes(std::size_t ring_pages) {
    return static_cast<uint32_t>(perf::ring_data_pages(ring_pages) * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)) /
                                 2);
  }

  static std::vector<uint64_t> ids_of(const perf::Group& events) {
    std::vector<uint64_t> ids;
    for (std::size_t i = 0; i < events.size(); ++i) ids.push_back(events.id(i));
    return ids;
  }

  // The first leader on a CPU gets the ring; the others write into it.
  void attach_to_ring(int cpu, int leader, std::size_t ring_pages) {
    const auto ring = ring_leaders_.find(cpu);
    if (ring == ring_leaders_.end()) {
      perf::RingBuffer buffer;
      if (const int err = buffer.map(leader, ring_pages)) {
        throw Error(
            fmt::format("cannot map the sampling buffer of CPU {}: {}; {}", cpu, std::strerror(err),
                        err == EPERM ? "raise kernel.perf_event_mlock_kb or run as root" : "sample fewer CPUs"));
      }
      rings_.emplace(cpu, std::move(buffer));
      ring_leaders_.emplace(cpu, leader);
    } else if (::ioctl(leader, PERF_EVENT_IOC_SET_OUTPUT, ring->second) != 0) {
      throw Error(fmt::format("cannot share the sampling buffer of CPU {}: {}", cpu, std::strerror(errno)));
    }
  }

  std::vector<OpenGroup> open_;
  std::vector<recording::Stream> streams_;
  std::map<int, perf::RingBuffer> rings_;  // per CPU
  std::map<int, int> ring_leaders_;        // per CPU: the leader whose ring it is
  bool build_id_ = true;
};

// Copies what each ring holds into the file, counting what the kernel lost.
class Drain {
 public:
  Drain(std::map<int, perf::RingBuffer>& rings, DataWriter& writer) : rings_(rings), writer_(writer) {}

  void all() {
    for (auto& [cpu, ring] : rings_) {
      const perf::Pending pending = ring.pending();
      if (pending.size() == 0) continue;
      ring.for_each_record(pending, [this](const perf_event_header& header, std::span<const std::byte> record) {
        if (header.type == PERF_RECORD_LOST) lost_ += word(record, 2);
        if (header.type == PERF_RECORD_LOST_SAMPLES) lost_ += word(record, 1);
      });
      writer_.write(pending.first, pending.second);
      ring.release(pending);
    }
  }
  uint64_t lost() const { return lost_; }

 private:
  static uint64_t word(std::span<const std::byte> record, std::size_t index) {
    uint64_t value = 0;
    if (record.size() >= (index + 1) * 8) std::memcpy(&value, record.data() + index * 8, sizeof value);
    return value;
  }

  std::map<int, perf::RingBuffer>& rings_;
  DataWriter& writer_;
  uint64_t lost_ = 0;
};

// Drains the rings whenever one is half full, or every `kFlushPeriod` so
// that a killed recording loses little, until the recording must end (as
// collect's counting ends). The last stop signal received.
std::optional<int> sample_until_end(collect::StopSignals& signals, const std::vector<int>& processes, bool has_workload,
                                    const std::vector<int>& rings, Drain& drain) {
  constexpr int kFlushPeriodMs = 250;
  std::vector<pollfd> fds = {{signals.fd(), POLLIN, 0}};
  for (const int process : processes) fds.push_back({process, POLLIN, 0});
  const std::size_t first_ring = fds.size();
  for (const int ring : rings) fds.push_back({ring, POLLIN, 0});
  std::size_t running = processes.size();
  std::optional<int> stop_signal;
  bool done = false;
  while (!done) {
    if (::poll(fds.data(), fds.size(), kFlushPeriodMs) < 0) {
      if (errno == EINTR) continue;
      throw Error(std::string("cannot wait while sampling: ") + std::strerror(errno));
    }
    drain.all();
    if (fds[0].revents != 0) {
      if (const auto received = signals.take()) stop_signal = received;
      done = !has_workload;  // the command got the signal: wait for it to end
    }
    for (std::size_t i = 1; i < first_ring; ++i) {
      if (fds[i].revents == 0) continue;
      fds[i].fd = -1;
      done = done || has_workload || --running == 0;
    }
    for (std::size_t i = first_ring; i < fds.size(); ++i) {
      // The tasks of a per-task ring have all exited: it will say so forever.
      if ((fds[i].revents & (POLLHUP | POLLERR)) != 0) fds[i].fd = -1;
    }
  }
  return stop_signal;
}

recording::CallGraph recorded_call_graph(perf::CallGraph mode) {
  switch (mode) {
    case perf::CallGraph::FramePointers:
      return recording::CallGraph::FramePointers;
    case perf::CallGraph::Dwarf:
      return recording::CallGraph::Dwarf;
    case perf::CallGraph::None:
      break;
  }
  return recording::CallGraph::None;
}

}  // namespace

Result record(const collect::Target& target, const std::vector<collect::CounterGroup>& groups, recording::Header header,
              const std::string& path, const Options& options) {
  if (target.command.empty() && target.pids.empty() && target.cpus.empty()) {
    throw Error("no workload to record: give the command after '--' (or -p PID, -a)");
  }
  if (groups.empty()) throw Error("nothing to sample: the plan has no counter group");
  header.call_graph = recorded_call_graph(options.call_stacks.mode);
  header.max_stack = options.call_stacks.max_stack;
  header.groups.clear();
  for (const collect::CounterGroup& group : groups) {
    recording::SampledGroup sampled;
    for (const events::Encoding& event : group.events) sampled.events.push_back(event.name);
    sampled.copies = group.copies;
    sampled.frequency = options.rate.frequency;
    sampled.period = options.rate.frequency != 0 ? 0 : options.rate.period;
    if (!header.core_types.empty()) sampled.pmu = group.events.front().pmu;
    header.groups.push_back(std::move(sampled));
  }

  std::optional<collect::Workload> workload;
  if (!target.command.empty()) workload.emplace(target.command, options.run_as);
  std::vector<collect::Fd> attached;
  for (const pid_t pid : target.pids) attached.push_back(collect::watch_process(pid));
  std::vector<int> processes;
  if (workload) {
    processes.push_back(workload->exit_fd());
  } else {
    for (const collect::Fd& process : attached) processes.push_back(process.get());
  }

  const bool records_the_command = target.pids.empty() && target.cpus.empty();
  Samplers samplers(groups, places_of(target, records_the_command ? workload->pid() : 0), options, records_the_command);
  DataWriter writer(path);
  const uint64_t sample_type = perf::sample_type(options.call_stacks);
  const uint64_t registers = options.call_stacks.mode == perf::CallGraph::Dwarf ? perf::user_register_mask() : 0;
  writer.write(recording::encode_file_start({header, sample_type, perf::kReadGroup, registers, samplers.streams()}));
  if (!records_the_command) {
    const std::vector<pid_t> running = target.cpus.empty() ? target.pids : running_processes();
    for (const pid_t pid : running) writer.write(process_records(pid, sample_type));
  }

  Result result;
  Drain drain(samplers.rings(), writer);
  {
    collect::StopSignals signals(workload ? workload->pid() : 0);
    const auto start = Clock::now();
    if (!records_the_command) samplers.enable();
    if (workload) workload->release();
    result.stopped_by = sample_until_end(signals, processes, workload.has_value(), samplers.ring_fds(), drain);
    result.elapsed_s = std::chrono::duration<double>(Clock::now() - start).count();
    samplers.disable();
    drain.all();
  }
  result.lost = drain.lost();
  writer.write(recording::encode_run_end(result.lost, samplers.times(groups.size())));
  result.bytes = writer.bytes();
  if (workload) {
    const int status = workload->reap();
    if (WIFSIGNALED(status)) {
      result.signal = WTERMSIG(status);
      result.exit_code = 128 + WTERMSIG(status);
    } else {
      result.exit_code = WEXITSTATUS(status);
    }
  } else if (result.stopped_by) {
    result.exit_code = 128 + *result.stopped_by;
  }
  return result;
}

}  // namespace topdown::sampling
