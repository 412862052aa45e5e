#include "collect/counter_set.h"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "common/error.h"

namespace topdown::collect {
namespace {

const std::filesystem::path kSysfsDevices = "/sys/bus/event_source/devices";

std::string read_paranoid() {
  std::ifstream in("/proc/sys/kernel/perf_event_paranoid");
  std::string value;
  in >> value;
  return value;
}

// How an error names a placement the user chose; the workload's own pid
// would only be noise.
std::string where_text(const Placement& where) {
  if (where.cpu >= 0) return fmt::format("CPU {}: ", where.cpu);
  return where.attached ? fmt::format("process {}: ", where.pid) : "";
}

}  // namespace

CounterSet::CounterSet(const std::vector<CounterGroup>& groups, const std::vector<Placement>& placements,
                       const Options& options, Start start) {
  for (const Placement& where : placements) {
    const size_t placement = placements_.size();
    placements_.push_back(where);
    bool vanished = false;
    for (const CounterGroup& group : groups) {
      int leader = -1;
      for (const events::Encoding& encoding : group.events) {
        if (encoding.type == events::Encoding::kAbsentPmu) {
          throw Error("cannot count '" + encoding.name + "': this machine has no PMU '" + encoding.pmu +
                      "' (the event is for another CPU); choose the model of this CPU or leave out --cpu");
        }
        perf_event_attr attr = make_attr(encoding, options, leader < 0, start);
        const long fd = ::syscall(SYS_perf_event_open, &attr, where.pid, where.cpu, leader, PERF_FLAG_FD_CLOEXEC);
        if (fd < 0) {
          const int err = errno;
          // A thread of an attached process may end while we open its counters.
          if (err == ESRCH && where.cpu < 0) {
            vanished = true;
            break;
          }
          throw Error(where_text(where) + explain_open_failure(err, encoding, kSysfsDevices, read_paranoid()));
        }
        counters_.push_back({group.copies.key_of(encoding.name), placement, Fd(static_cast<int>(fd))});
        if (leader < 0) {
          leader = counters_.back().fd.get();
          leaders_.push_back(leader);
        }
      }
      if (vanished) break;
    }
    const bool has_counters = !counters_.empty() && counters_.back().placement == placement;
    if (!has_counters) placements_.pop_back();
  }
}

void CounterSet::enable() const {
  for (const int leader : leaders_) {
    if (::ioctl(leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) != 0) {
      throw Error(std::string("cannot start the counters: ") + std::strerror(errno));
    }
  }
}

std::vector<counts::Place> CounterSet::read() const {
  std::vector<counts::Place> places;
  places.reserve(placements_.size());
  for (const Placement& where : placements_) places.push_back({where.label, {}});
  for (const Counter& counter : counters_) {
    // value, time_enabled, time_running (read_format without PERF_FORMAT_GROUP)
    uint64_t fields[3] = {};
    const ssize_t got = ::read(counter.fd.get(), fields, sizeof fields);
    if (got != static_cast<ssize_t>(sizeof fields)) {
      throw Error(fmt::format("{}cannot read the counter of '{}': {}", where_text(placements_[counter.placement]),
                              counter.key.event, got < 0 ? std::strerror(errno) : "short read"));
    }
    places[counter.placement].sample.add(counter.key, {static_cast<double>(fields[0]), fields[1], fields[2]});
  }
  return places;
}

}  // namespace topdown::collect
