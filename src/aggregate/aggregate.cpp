#include "aggregate/aggregate.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "common/error.h"

namespace topdown::aggregate {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool all_digits(std::string_view text) { return !text.empty() && std::all_of(text.begin(), text.end(), is_digit); }

int to_int(std::string_view digits) {
  int value = 0;
  std::from_chars(digits.data(), digits.data() + digits.size(), value);
  return value;
}

// "S0-D0-C1" -> {"S0", "D0", "C1"} when every part is one capital letter and digits.
std::optional<std::vector<std::string_view>> id_parts(std::string_view label) {
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    const size_t dash = label.find('-', start);
    const std::string_view part =
        label.substr(start, dash == std::string_view::npos ? std::string_view::npos : dash - start);
    if (part.size() < 2 || part[0] < 'A' || part[0] > 'Z' || !all_digits(part.substr(1))) return std::nullopt;
    parts.push_back(part);
    if (dash == std::string_view::npos) return parts;
    start = dash + 1;
  }
}

std::string_view kind_name(PlaceKind kind) {
  switch (kind) {
    case PlaceKind::Cpu:
      return "per-CPU rows (perf stat -A)";
    case PlaceKind::Core:
      return "per-core rows (perf --per-core)";
    case PlaceKind::Die:
      return "per-die rows (perf --per-die)";
    case PlaceKind::Socket:
      return "per-socket rows (perf --per-socket)";
    case PlaceKind::Thread:
      return "per-thread rows (perf --per-thread)";
    case PlaceKind::Other:
      return "rows per node or cache";
  }
  return "rows";
}

int cpu_of(std::string_view label) { return to_int(label.substr(3)); }

// Collects units in order of their first place.
class Units {
 public:
  counts::Sample& of(const std::string& label) {
    auto it =
        std::find_if(result_.units.begin(), result_.units.end(), [&](const Unit& unit) { return unit.label == label; });
    if (it != result_.units.end()) return it->sample;
    result_.units.push_back(Unit{label, {}});
    return result_.units.back().sample;
  }
  Aggregation& result() { return result_; }

 private:
  Aggregation result_;
};

const Topology& topology_for(const Request& request, std::string_view why) {
  if (!request.topology) {
    throw Error(
        fmt::format("{} needs the CPU topology of the measured machine; give `lscpu -p=CPU,CORE,SOCKET` "
                    "output from there with --topology FILE",
                    why));
  }
  return *request.topology;
}

const CpuPlace& place_of(const Topology& topology, std::string_view label) {
  const CpuPlace* place = topology.find(cpu_of(label));
  if (!place) {
    throw Error(
        fmt::format("{} is not in the CPU topology ({} CPUs); give the measured machine's "
                    "`lscpu -p=CPU,CORE,SOCKET` output with --topology FILE",
                    label, topology.size()));
  }
  return *place;
}

// --per-thread of per-CPU places: each CPU, with the core-wide events
// summed over its core's CPUs.
void per_cpu_threads(const std::vector<counts::Place>& places, const Request& request, Units& units) {
  const bool needs_cores = std::any_of(places.begin(), places.end(), [&](const counts::Place& place) {
    return std::any_of(request.core_wide_events.begin(), request.core_wide_events.end(),
                       [&](const std::string& event) { return place.sample.find(event) != nullptr; });
  });
  for (const counts::Place& place : places) counts::add_scaled(units.of(place.label), place.sample);
  if (!needs_cores) return;
  const Topology& topology = topology_for(request, "a per-thread view of core-wide (:percore) events");
  for (Unit& unit : units.result().units) {
    const CpuPlace& where = place_of(topology, unit.label);
    for (const std::string& event : request.core_wide_events) {
      if (!unit.sample.find(event)) continue;
      counts::Count core;
      for (const counts::Place& sibling : places) {
        if (const CpuPlace& other = place_of(topology, sibling.label);
            other.core != where.core || other.socket != where.socket) {
          continue;
        }
        if (const counts::Count* count = sibling.sample.find(event)) counts::add_scaled(core, *count);
      }
      unit.sample.events[event] = core;
    }
  }
}

// --per-core or --per-socket of per-CPU places.
void per_cpu_groups(const std::vector<counts::Place>& places, const Request& request, Units& units) {
  const bool by_core = request.view == View::Core;
  const Topology& topology =
      topology_for(request, by_core ? "--per-core of per-CPU counts" : "--per-socket of per-CPU counts");
  std::map<std::string, std::pair<size_t, size_t>> cpus_of_core;  // counted, in the topology
  for (const counts::Place& place : places) {
    const CpuPlace& where = place_of(topology, place.label);
    const std::string label =
        by_core ? fmt::format("S{}-C{}", where.socket, where.core) : fmt::format("S{}", where.socket);
    counts::add_scaled(units.of(label), place.sample);
    if (by_core) {
      auto& [counted, total] = cpus_of_core[label];
      ++counted;
      total = topology.cpus_of_core(where).size();
    }
  }
  std::vector<std::string> partial;
  for (const auto& [label, cpus] : cpus_of_core) {
    if (cpus.first < cpus.second) partial.push_back(fmt::format("{} ({} of {})", label, cpus.first, cpus.second));
  }
  if (!partial.empty()) {
    units.result().warnings.push_back(fmt::format(
        "the counts lack some CPUs of core{} {}: per-thread events count only the CPUs given, while events that "
        "count the whole core (_ANY, :percore) do not; those cores' values are not the whole core's",
        partial.size() == 1 ? "" : "s", fmt::join(partial, ", ")));
  }
}

std::string socket_of(std::string_view label) { return std::string(id_parts(label)->front()); }

// --per-thread and --per-core of per-CPU places: every unit of a socket gets
// the socket's count of each event perf printed once per socket, instead of
// the first CPU (or core) alone having it. Needs the topology; an event two
// CPUs of one socket counted is not once per socket and stays as it is.
// Without a topology the units keep what they have, and a warning says so.
void spread_socket_counts(const std::vector<counts::Place>& places, const Request& request, Units& units) {
  const auto events = counted_once_per_socket(places);
  Aggregation& result = units.result();
  if (events.empty()) return;
  if (!request.topology) {
    result.warnings.push_back(fmt::format(
        "{} only some CPUs have (perf prints an uncore or package count, kept once per socket, on one CPU of "
        "the socket): give the measured machine's `lscpu -p=CPU,CORE,SOCKET` output with --topology FILE so that "
        "each CPU gets its socket's count",
        fmt::join(events, ", ")));
    return;
  }
  const Topology& topology = *request.topology;
  for (const std::string& event : events) {
    std::map<int, counts::Count> socket_count;
    std::map<int, int> counting_cpus;
    for (const counts::Place& place : places) {
      const counts::Count* count = place.sample.find(event);
      if (!count) continue;
      const int socket = place_of(topology, place.label).socket;
      counts::add_scaled(socket_count[socket], *count);
      ++counting_cpus[socket];
    }
    if (std::any_of(counting_cpus.begin(), counting_cpus.end(), [](const auto& cpus) { return cpus.second > 1; })) {
      continue;
    }
    for (Unit& unit : result.units) {
      const int socket = request.view == View::Thread ? place_of(topology, unit.label).socket
                                                      : to_int(std::string_view(socket_of(unit.label)).substr(1));
      const auto found = socket_count.find(socket);
      if (found != socket_count.end()) unit.sample.events[event] = found->second;
    }
    result.socket_wide_events.insert(event);
  }
  if (!result.socket_wide_events.empty()) {
    result.warnings.push_back(fmt::format(
        "{} {} counted once per socket (uncore or package): each {} shows its socket's count, and the values "
        "computed from {} are marked socket-wide",
        fmt::join(result.socket_wide_events, ", "), result.socket_wide_events.size() == 1 ? "is" : "are",
        request.view == View::Thread ? "CPU" : "core", result.socket_wide_events.size() == 1 ? "it" : "them"));
  }
}

}  // namespace

std::set<std::string, std::less<>> counted_once_per_socket(const std::vector<counts::Place>& places) {
  std::set<std::string, std::less<>> events;
  if (places.empty() || kind_of_label(places.front().label) != PlaceKind::Cpu) return events;
  std::map<std::string_view, size_t> counted_by;
  for (const counts::Place& place : places) {
    for (const auto& [key, count] : place.sample.events) {
      if (key.group == 0) ++counted_by[key.event];
    }
  }
  for (const auto& [event, cpus] : counted_by) {
    if (cpus < places.size()) events.emplace(event);
  }
  return events;
}

std::string_view view_name(View view) {
  switch (view) {
    case View::Global:
      return "global";
    case View::Thread:
      return "--per-thread";
    case View::Core:
      return "--per-core";
    case View::Socket:
      return "--per-socket";
  }
  return "global";
}

PlaceKind kind_of_label(std::string_view label) {
  if (label.size() > 3 && label.substr(0, 3) == "CPU" && all_digits(label.substr(3))) return PlaceKind::Cpu;
  if (const auto parts = id_parts(label); parts && parts->front()[0] == 'S') {
    const auto letters_are = [&](std::string_view expected) {
      if (parts->size() != expected.size()) return false;
      for (size_t i = 0; i < expected.size(); ++i) {
        if ((*parts)[i][0] != expected[i]) return false;
      }
      return true;
    };
    if (letters_are("S")) return PlaceKind::Socket;
    if (letters_are("SD")) return PlaceKind::Die;
    if (letters_are("SDC") || letters_are("SC")) return PlaceKind::Core;
    return PlaceKind::Other;
  }
  // perf --per-thread: "command-tid".
  const size_t dash = label.rfind('-');
  if (dash != std::string_view::npos && dash > 0 && all_digits(label.substr(dash + 1))) return PlaceKind::Thread;
  return PlaceKind::Other;
}

Aggregation aggregate(const std::vector<counts::Place>& places, const Request& request) {
  Units units;
  if (places.empty()) return units.result();
  const PlaceKind kind = kind_of_label(places.front().label);
  for (const counts::Place& place : places) {
    if (kind_of_label(place.label) != kind) {
      throw Error(
          fmt::format("the rows mix places of different kinds ('{}' and '{}'); count with one of perf's "
                      "-A, --per-core, --per-socket or --per-thread",
                      places.front().label, place.label));
    }
  }
  auto cannot = [&]() {
    return Error(fmt::format("{} needs finer counts than {} ('{}'); count with perf stat -A (per CPU){}",
                             view_name(request.view), kind_name(kind), places.front().label,
                             request.view == View::Thread ? " or --per-thread" : ""));
  };
  switch (request.view) {
    case View::Global:
      for (const counts::Place& place : places) counts::add_scaled(units.of("global"), place.sample);
      break;
    case View::Thread:
      if (kind == PlaceKind::Cpu) {
        per_cpu_threads(places, request, units);
        spread_socket_counts(places, request, units);
      } else if (kind == PlaceKind::Thread) {
        for (const counts::Place& place : places) counts::add_scaled(units.of(place.label), place.sample);
      } else {
        throw cannot();
      }
      break;
    case View::Core:
      if (kind == PlaceKind::Cpu) {
        per_cpu_groups(places, request, units);
        spread_socket_counts(places, request, units);
      } else if (kind == PlaceKind::Core) {
        for (const counts::Place& place : places) counts::add_scaled(units.of(place.label), place.sample);
      } else {
        throw cannot();
      }
      break;
    case View::Socket:
      if (kind == PlaceKind::Cpu) {
        per_cpu_groups(places, request, units);
      } else if (kind == PlaceKind::Core || kind == PlaceKind::Die || kind == PlaceKind::Socket) {
        for (const counts::Place& place : places) counts::add_scaled(units.of(socket_of(place.label)), place.sample);
      } else {
        throw cannot();
      }
      break;
  }
  return units.result();
}

std::vector<CgroupPlaces> split_by_cgroup(const std::vector<counts::Place>& places) {
  std::vector<CgroupPlaces> cgroups;
  for (const counts::Place& place : places) {
    auto found = std::find_if(cgroups.begin(), cgroups.end(),
                              [&](const CgroupPlaces& cgroup) { return cgroup.cgroup == place.cgroup; });
    if (found == cgroups.end()) found = cgroups.insert(cgroups.end(), CgroupPlaces{place.cgroup, {}, {}});
    found->places.push_back(place);
  }
  for (CgroupPlaces& cgroup : cgroups) cgroup.whole = aggregate(cgroup.places, Request{}).units.at(0).sample;
  return cgroups;
}

}  // namespace topdown::aggregate
