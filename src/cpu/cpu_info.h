#pragma once
// CPU detection: what processor this is and what its PMU can really do.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topdown::cpu {

// Arm CPUs are named by their MIDR: family = implementer, model = part
// number, stepping = variant << 4 | revision.
enum class Vendor { Intel, Amd, Arm, Other };

struct CpuId {
  Vendor vendor = Vendor::Other;
  std::string vendor_string;  // "GenuineIntel", "AuthenticAMD", ...
  unsigned family = 0;        // display family (base + extended)
  unsigned model = 0;         // display model (base + extended << 4)
  unsigned stepping = 0;
  std::string brand;  // "AMD EPYC 9xxx ..."
};

struct PmuInfo {
  std::string name;  // directory name under /sys/bus/event_source/devices
  int type = -1;     // perf_event_attr.type
  // Its cpus file: the only CPUs it counts on (each core type's PMU on a
  // hybrid CPU); empty when the PMU has none, i.e. counts on every CPU.
  std::vector<int> cpus;
};

struct CpuInfo {
  CpuId id;
  bool smt_enabled = false;
  int online_cpus = 0;
  std::vector<PmuInfo> pmus;
  std::string perf_event_paranoid;  // as read, empty when unreadable
  int reported_counters = 0;        // general counters the kernel/CPUID claims
  // General counters that really count (health check); nullopt when the
  // check could not run (no PMU, not permitted).
  std::optional<int> working_counters;
  // The kernel offers Intel's PERF_METRICS fields as events (topdown-retiring
  // and the others; Ice Lake and later).
  bool topdown_metrics = false;

  const PmuInfo* find_pmu(std::string_view name) const;
  bool has_core_pmu() const;  // "cpu" (or "cpu_core") PMU present
  // A hybrid CPU's core PMUs, one per core type (cpu_atom, cpu_core, ...:
  // "cpu_" and a list of the CPUs it counts on), by name; empty on a CPU
  // with one kind of core.
  std::vector<PmuInfo> hybrid_core_pmus() const;
};

// Reads cpuid. Pure function of the processor.
CpuId read_cpuid();
// Parses the ids from explicit values (tests, --cpu overrides, imports).
std::string vendor_name(Vendor vendor);

// Reads /sys and /proc below `root` (tests pass a fake tree).
CpuInfo detect(const std::filesystem::path& sysfs_root = "/sys", const std::filesystem::path& procfs_root = "/proc");

// Opens `candidates` cycle counters in one group on the calling thread, runs a
// short loop, and counts how many of them advanced. Returns nullopt when
// perf_event_open fails for the first counter.
std::optional<int> probe_working_counters(int candidates);

// sysfs helpers, shared with the event resolver.
// The first line of a small text file without its newline; nullopt when the
// file cannot be read.
std::optional<std::string> read_first_line(const std::filesystem::path& file);
// "0-3,6" -> {0, 1, 2, 3, 6} (sysfs cpu lists, counter lists). Throws
// topdown::Error naming `what` when the text is not such a list.
std::vector<int> parse_index_list(std::string_view text, std::string_view what);
// The reverse: {0, 1, 2, 3, 6} -> "0-3,6" (sorted indexes).
std::string format_index_list(const std::vector<int>& indexes);

}  // namespace topdown::cpu
