#pragma once
// CPU detection: what processor this is and what its PMU can really do.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
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
  // The terms of its format directory (event, umask, frontend, offcore_rsp,
  // ldlat, ...), sorted: an event whose encoding needs a term the kernel
  // lacks cannot be given to it.
  std::vector<std::string> format_terms = {};
  // caps/pmu_name: the kernel's name for the core PMU it drives
  // ("sapphire_rapids"; "generic_arch_v2+" when it knows only the
  // architectural events, as in many virtual machines); empty when absent.
  std::string pmu_name = {};
  // caps/max_precise: the most precise level (:p, :pp, :ppp) it samples
  // with, 0 without PEBS; nullopt when absent.
  std::optional<int> max_precise = std::nullopt;

  bool has_format_term(std::string_view term) const;
};

// One kind of core of an Arm CPU: the cores that share a MIDR.
struct CoreKind {
  CpuId id;
  std::vector<int> cpus;  // sorted
};

struct CpuInfo {
  // On Arm the main core kind's (main_core_kind).
  CpuId id;
  // Arm: each MIDR of the online CPUs, by first CPU (two or more on a
  // big.LITTLE system); empty on x86.
  std::vector<CoreKind> core_kinds;
  bool smt_enabled = false;
  int online_cpus = 0;
  int sockets = 0;  // packages of the online CPUs (their topology's physical_package_id); 0 when unknown
  // Distinct core_id of each package's online CPUs, where every package has
  // as many; 0 when unknown.
  int cores_per_socket = 0;
  std::vector<PmuInfo> pmus;
  std::string perf_event_paranoid;  // as read, empty when unreadable
  int reported_counters = 0;        // general counters the kernel/CPUID claims
  // General counters that really count (health check); nullopt when the
  // check could not run (no PMU, not permitted).
  std::optional<int> working_counters;
  // The kernel offers Intel's PERF_METRICS fields as events (topdown-retiring
  // and the others; Ice Lake and later).
  bool topdown_metrics = false;
  // /proc/sys/kernel/nmi_watchdog is 1: the kernel's watchdog holds a
  // counter on every CPU.
  bool nmi_watchdog = false;
  // cpuinfo's flags say it runs under a hypervisor.
  bool hypervisor = false;
  // Read from a copy of another machine's /sys and /proc (CounterCheck::Skip):
  // its CPU is the one DIR/proc/cpuinfo names, when present, and its counters
  // are not this machine's cpuid's.
  bool another_machine = false;
  // The sysfs this was read from: /sys, or a copy of another machine's,
  // whose PMUs (bus/event_source/devices) resolve the events too.
  std::filesystem::path sysfs_root = "/sys";

  const PmuInfo* find_pmu(std::string_view name) const;
  // "cpu" (or "cpu_core") PMU present, or an Arm core PMU.
  bool has_core_pmu() const;
  // A hybrid CPU's core PMUs, one per core type (cpu_atom, cpu_core, ...:
  // "cpu_" and a list of the CPUs it counts on), by name; empty on a CPU
  // with one kind of core.
  std::vector<PmuInfo> hybrid_core_pmus() const;
  // The Arm PMUs of the cores (is_arm_core_pmu), by name.
  std::vector<PmuInfo> arm_core_pmus() const;
  // The names of every core PMU found: "cpu", a hybrid CPU's, the Arm cores'
  // (whatever their names, by their cpus lists). What decides which PMUs are
  // cores' on this machine; another machine's are known by name alone
  // (perf::is_arm_core_pmu).
  std::vector<std::string> core_pmu_names() const;
  // The Arm core PMU that counts on every CPU of `kind`; nullptr when none.
  const PmuInfo* arm_core_pmu_of(const CoreKind& kind) const;
};

// perf::is_arm_core_pmu of the PMU.
bool is_arm_core_pmu(const PmuInfo& pmu);
// The PMUs with a type under `devices_dir` (/sys/bus/event_source/devices),
// by name.
std::vector<PmuInfo> read_pmus(const std::filesystem::path& devices_dir);

// What processor this is: cpuid on x86; on Arm the main core kind of the
// MIDRs in /sys (CpuId of Vendor::Other when there are none).
CpuId read_cpuid();
// MIDR_EL1 (implementer bits 31-24, variant 23-20, part 15-4, revision 3-0)
// as a CpuId of Vendor::Arm.
CpuId decode_midr(uint64_t midr);
// The MIDR (cpuN/regs/identification/midr_el1) of every CPU below
// `sysfs_root`/devices/system/cpu, grouped by value; empty on x86. Throws
// topdown::Error naming a file that holds no MIDR.
std::vector<CoreKind> read_core_kinds(const std::filesystem::path& sysfs_root);
// The kind whose cores come last: Linux numbers a big.LITTLE system's big
// cores after its little ones. `kinds` must not be empty.
const CoreKind& main_core_kind(const std::vector<CoreKind>& kinds);
// Parses the ids from explicit values (tests, --cpu overrides, imports).
std::string vendor_name(Vendor vendor);

// What the first processor of a /proc/cpuinfo says (x86).
struct ProcCpuinfo {
  CpuId id;
  std::set<std::string, std::less<>> flags;
};
// nullopt when the file is absent or names no vendor (an Arm cpuinfo).
std::optional<ProcCpuinfo> read_proc_cpuinfo(const std::filesystem::path& file);
// The general counters cpuinfo's flags tell: an AMD CPU's six with the core
// counter extension (perfctr_core) or PerfMonV2, else four; 0 for Intel,
// whose count only cpuid leaf 0xA gives.
int general_counters(const ProcCpuinfo& cpuinfo);

// Whether detect runs the counter health check (probe_working_counters): it
// counts on this machine, which a copy of another machine's tree is not.
enum class CounterCheck { Run, Skip };

// Reads /sys and /proc below `root` (tests pass a fake tree). With
// CounterCheck::Skip the tree is another machine's: an x86 CPU is then the
// one its proc/cpuinfo names, when it has one.
CpuInfo detect(const std::filesystem::path& sysfs_root = "/sys", const std::filesystem::path& procfs_root = "/proc",
               CounterCheck check = CounterCheck::Run);

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

// Cores per socket from each socket's distinct core ids (a map of socket to
// a set of cores), when every socket has as many; else 0, unknown.
template <typename CoresBySocket>
int alike_cores_per_socket(const CoresBySocket& cores_by_socket) {
  if (cores_by_socket.empty()) return 0;
  const size_t first = cores_by_socket.begin()->second.size();
  for (const auto& [socket, cores] : cores_by_socket) {
    if (cores.size() != first) return 0;
  }
  return static_cast<int>(first);
}

}  // namespace topdown::cpu
