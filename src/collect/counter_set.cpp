#include "collect/counter_set.h"

#include <linux/perf_event.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "common/error.h"
#include "perf/open_failure.h"

namespace topdown::collect {
namespace {

std::string read_paranoid() {
  std::ifstream in("/proc/sys/kernel/perf_event_paranoid");
  std::string value;
  in >> value;
  return value;
}

// How an error names a placement the user chose; the workload's own pid
// would only be noise.
std::string where_text(const Placement& where) {
  if (!where.cgroup.empty()) return fmt::format("cgroup {} on CPU {}: ", where.cgroup, where.cpu);
  if (where.cpu >= 0) return fmt::format("CPU {}: ", where.cpu);
  return where.attached ? fmt::format("process {}: ", where.pid) : "";
}

// An uncore group counts its socket, on the CPU of each socket its PMU
// names (opened elsewhere the kernel would move it there, and each CPU
// would count the socket again); a task has no uncore count.
bool counts_here(const CounterGroup& group, const Placement& where) {
  const events::Encoding& leader = group.events.front();
  if (leader.uncore) {
    if (where.cpu < 0 || !where.cgroup.empty()) return false;
    const std::vector<int>& cpus = leader.uncore_cpus;
    if (!cpus.empty() && std::find(cpus.begin(), cpus.end(), where.cpu) == cpus.end()) return false;
  }
  return where.cpu < 0 || group.cpus.empty() ||
         std::find(group.cpus.begin(), group.cpus.end(), where.cpu) != group.cpus.end();
}

// The perf types a group opens on: each box of a unit registered box by box
// (their counts are added up, as perf's merged uncore counts are), else the
// group's own PMU.
std::vector<std::optional<uint32_t>> box_types_of(const CounterGroup& group) {
  const std::vector<uint32_t>& boxes = group.events.front().box_types;
  if (boxes.empty()) return {std::nullopt};
  return {boxes.begin(), boxes.end()};
}

// An event the kernel refuses while its PMU counts the others (a virtual
// machine's partial PMU that the trial opens did not catch) is left out,
// and what needs it is n/a naming it. Permission, a PMU the kernel lacks
// altogether and a full machine still stop the run.
bool refused_alone(int err, const events::Encoding& encoding) {
  if (err == EACCES || err == EPERM || err == EMFILE || err == EBUSY) return false;
  return encoding.type == PERF_TYPE_SOFTWARE || perf::pmu_available();
}

}  // namespace

CounterSet::CounterSet(const std::vector<CounterGroup>& groups, const std::vector<Placement>& placements,
                       const Options& options, Start start) {
  for (const Placement& where : placements) {
    const size_t placement = placements_.size();
    const size_t groups_before = groups_.size();
    placements_.push_back(where);
    bool vanished = false;
    for (const CounterGroup& group : groups) {
      if (group.events.empty() || !counts_here(group, where)) continue;
      for (const std::optional<uint32_t> box_type : box_types_of(group)) {
        vanished = !open_group(group, placement, box_type, options, start);
        if (vanished) break;
      }
      if (vanished) break;
    }
    if (groups_.size() == groups_before) placements_.pop_back();
  }
}

bool CounterSet::open_group(const CounterGroup& group, size_t placement, std::optional<uint32_t> box_type,
                            const Options& options, Start start) {
  const Placement& where = placements_[placement];
  OpenGroup open{placement, {}, perf::Group({where.pid, where.cpu, !where.cgroup.empty()}), {}};
  for (events::Encoding encoding : group.events) {
    if (encoding.type == events::Encoding::kAbsentPmu) {
      throw Error("cannot count '" + encoding.name + "': this machine has no PMU '" + encoding.pmu +
                  "' (the event is for another CPU); choose the model of this CPU or leave out --cpu");
    }
    if (box_type) encoding.type = *box_type;
    const int err = open.group.add(make_attr(encoding, options, open.group.empty(), start));
    // A thread of an attached process may end while we open its counters.
    if (err == ESRCH && where.cpu < 0) return false;
    if (err != 0) {
      const std::string why = perf::explain_open_failure(err, encoding.perf_event(options.include_kernel),
                                                         perf::kSysfsDevices, read_paranoid());
      if (!refused_alone(err, encoding)) throw Error(where_text(where) + why);
      if (refused_.insert(encoding.name).second) {
        // A software event needs no PMU: the kernel's own word says why.
        const std::string said = encoding.type == PERF_TYPE_SOFTWARE ? std::strerror(err) : why;
        std::fputs(
            fmt::format("topdown: warning: '{}' did not open: {}; what needs it is n/a\n", encoding.name, said).c_str(),
            stderr);
      }
      continue;
    }
    open.keys.push_back(group.copies.key_of(encoding.name));
    open.exact_when_running.push_back(!where.cgroup.empty() && encoding.type == PERF_TYPE_SOFTWARE);
  }
  if (!open.group.empty()) groups_.push_back(std::move(open));
  return true;
}

void CounterSet::enable() const {
  for (const OpenGroup& open : groups_) {
    if (const int err = open.group.enable()) {
      throw Error(std::string("cannot start the counters: ") + std::strerror(err));
    }
  }
}

std::vector<counts::Place> CounterSet::read() const {
  std::vector<counts::Place> places;
  places.reserve(placements_.size());
  for (const Placement& where : placements_) places.emplace_back(where.label, counts::Sample{}, where.cgroup);
  for (const OpenGroup& open : groups_) {
    for (size_t i = 0; i < open.group.size(); ++i) {
      perf::Reading reading;
      if (const int failed = perf::read_event(open.group.fd(i), reading)) {
        throw Error(fmt::format("{}cannot read the counter of '{}': {}", where_text(placements_[open.placement]),
                                open.keys[i].event, perf::read_failure(failed)));
      }
      const uint64_t enabled = open.exact_when_running[i] ? reading.times.running : reading.times.enabled;
      places[open.placement].sample.add(open.keys[i],
                                        {static_cast<double>(reading.value), enabled, reading.times.running});
    }
  }
  return places;
}

std::vector<CounterSet::OpenEvent> CounterSet::open_events() const {
  std::vector<OpenEvent> events;
  for (const OpenGroup& open : groups_) {
    for (size_t i = 0; i < open.group.size(); ++i)
      events.push_back({placements_[open.placement].cpu, open.keys[i], open.group.fd(i)});
  }
  return events;
}

}  // namespace topdown::collect
