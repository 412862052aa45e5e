#pragma once
// Aggregation: counts taken per CPU (perf stat -A, system-wide counting),
// per core, per socket or per thread, grouped into the units a report shows:
// each CPU, each core, each socket, or everything together.
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "counts/counts.h"

namespace topdown::aggregate {

// The units of a report: --per-thread, --per-core, --per-socket, or one.
enum class View { Global, Thread, Core, Socket };

// "--per-core" for View::Core ("global" for View::Global).
std::string_view view_name(View view);

// What a place's label says it is, in perf's spelling: "CPU3" (-A), "S0-D0-C1"
// (--per-core), "S0-D0" (--per-die), "S0" (--per-socket), "app-4242"
// (--per-thread: command and thread id), anything else (--per-node "N0",
// --per-cache) is Other.
enum class PlaceKind { Cpu, Core, Die, Socket, Thread, Other };
PlaceKind kind_of_label(std::string_view label);

// Where each logical CPU sits.
struct CpuPlace {
  int core = 0;  // core id within its socket
  int socket = 0;
};

class Topology {
 public:
  Topology() = default;
  explicit Topology(std::map<int, CpuPlace> cpus) : cpus_(std::move(cpus)) {}

  // The output of `lscpu -p=CPU,CORE,SOCKET` (plain `lscpu -p` works too: a
  // "# CPU,Core,Socket,..." header line names the columns; without one the
  // columns are CPU, CORE, SOCKET). Offline CPUs (empty fields) are left
  // out. Throws ParseError naming the file and line.
  static Topology read_lscpu(const std::filesystem::path& file);
  // This machine's: cpuN/topology/{core_id,physical_package_id} under
  // `cpu_dir`. Throws Error when it lists no CPU.
  static Topology read_sysfs(const std::filesystem::path& cpu_dir = "/sys/devices/system/cpu");

  const CpuPlace* find(int cpu) const;
  std::vector<int> cpus_of_core(const CpuPlace& place) const;  // in CPU order
  size_t size() const { return cpus_.size(); }
  int socket_count() const;  // sockets with an online CPU
  // The cores of each socket when every socket has as many; else 0.
  int cores_per_socket() const;

 private:
  std::map<int, CpuPlace> cpus_;
};

// A report's unit: its label ("CPU3", "S0-C1", "S0", "app-4242", "global",
// or perf's own label for per-core and per-socket rows) and its counts.
struct Unit {
  std::string label;
  counts::Sample sample;
};

struct Request {
  View view = View::Global;
  // Needed to group per-CPU places by core or socket, and for core_wide_events
  // per thread; may be null otherwise.
  const Topology* topology = nullptr;
  // Events whose per-thread value is the count of the whole core (Intel's
  // ":percore"): with View::Thread each CPU gets the sum over its core's CPUs.
  // Haswell's `_ANY` events need nothing: each thread's counter already counts
  // the whole core, and the formulas halve it (CORE_CLKS =
  // CPU_CLK_UNHALTED.THREAD_ANY / 2 with SMT), so a core's plain sum is right.
  std::set<std::string, std::less<>> core_wide_events;
};

struct Aggregation {
  std::vector<Unit> units;            // in order of their first place
  std::vector<std::string> warnings;  // one line each, for people
  // Events a PMU keeps per socket (counted_once_per_socket) whose socket
  // count every CPU or core of the socket was given (--per-thread and
  // --per-core of per-CPU places): a unit's values of them are its socket's.
  std::set<std::string, std::less<>> socket_wide_events;
};

// The events of per-CPU places (perf stat -A) that some CPUs have and others
// lack: perf prints an uncore box's or the package's count (a PMU with one
// CPU per socket in its cpumask) on that CPU only. Empty for other places.
std::set<std::string, std::less<>> counted_once_per_socket(const std::vector<counts::Place>& places);

// Groups `places` (all of one PlaceKind, in the order they were read) into
// the units of `request.view`. Counts of several places are added with
// counts::add_scaled. Throws Error when the places cannot give that view
// (per-core rows for --per-thread, say) or a CPU is missing from the topology.
Aggregation aggregate(const std::vector<counts::Place>& places, const Request& request);

// Places counted with --cgroup, one list per cgroup (counts::Place::cgroup)
// in order of its first place, with their sum. Each is a whole of its own:
// cgroups nest, so their sum would count a task once per cgroup that holds it.
struct CgroupPlaces {
  std::string cgroup;
  std::vector<counts::Place> places;
  counts::Sample whole;  // the places added up as View::Global does
};
std::vector<CgroupPlaces> split_by_cgroup(const std::vector<counts::Place>& places);

}  // namespace topdown::aggregate
