#include <algorithm>
#include <charconv>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <system_error>

#include "cpu/cpu_info.h"
#include "cpu/cpuid_decode.h"
#include "perf/open_failure.h"

namespace topdown::cpu {
namespace {

namespace fs = std::filesystem;

std::optional<int> parse_int(const std::string& text) {
  int value = 0;
  const auto [end, status] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (status != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::vector<int> online_cpus(const fs::path& cpu_dir) {
  const fs::path file = cpu_dir / "online";
  const auto list = read_first_line(file);
  return list ? parse_index_list(*list, file.string()) : std::vector<int>{};
}

// The distinct core ids of each package's online CPUs, by package; empty when
// a CPU has no topology (a count would be a guess).
std::map<std::string, std::set<std::string>> cores_by_package(const fs::path& cpu_dir, const std::vector<int>& cpus) {
  std::map<std::string, std::set<std::string>> cores;
  for (const int cpu : cpus) {
    const fs::path topology = cpu_dir / ("cpu" + std::to_string(cpu)) / "topology";
    const auto package = read_first_line(topology / "physical_package_id");
    const auto core = read_first_line(topology / "core_id");
    if (!package) return {};
    cores[*package].insert(core.value_or(""));
  }
  return cores;
}

// Cores per socket where every package has as many (else 0: unknown); a
// kernel without core_id files gives none.
int count_cores_per_socket(const std::map<std::string, std::set<std::string>>& cores) {
  for (const auto& [package, ids] : cores) {
    if (ids.count("") != 0) return 0;
  }
  return alike_cores_per_socket(cores);
}

bool smt_active(const fs::path& cpu_dir) {
  if (const auto active = read_first_line(cpu_dir / "smt" / "active")) return *active == "1";
  // Kernels without the smt directory: cpu0 has siblings only when SMT is on.
  const fs::path siblings_file = cpu_dir / "cpu0" / "topology" / "thread_siblings_list";
  const auto siblings = read_first_line(siblings_file);
  return siblings && parse_index_list(*siblings, siblings_file.string()).size() > 1;
}

// Arm keeps the number of event counters (PMCR_EL0.N, 5 bits) from user
// space: the probe starts at the architecture's most.
constexpr int kArmMostEventCounters = 31;

std::optional<int> probe_arm_event_counters() {
  // The group's cycle events take the cycle counter too, which counts
  // nothing else: the event counters are the rest.
  const auto counting = probe_working_counters(kArmMostEventCounters + 1);
  if (!counting) return std::nullopt;
  return std::max(*counting - 1, 0);
}

}  // namespace

std::vector<PmuInfo> read_pmus(const fs::path& devices_dir) {
  std::vector<PmuInfo> pmus;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(devices_dir, error)) {
    const auto type_text = read_first_line(entry.path() / "type");
    const auto type = type_text ? parse_int(*type_text) : std::nullopt;
    if (!type) continue;
    const fs::path cpus_file = entry.path() / "cpus";
    const auto cpus = read_first_line(cpus_file);
    PmuInfo pmu{entry.path().filename().string(), *type,
                cpus ? parse_index_list(*cpus, cpus_file.string()) : std::vector<int>{}};
    for (const auto& term : fs::directory_iterator(entry.path() / "format", error)) {
      pmu.format_terms.push_back(term.path().filename().string());
    }
    std::sort(pmu.format_terms.begin(), pmu.format_terms.end());
    pmu.pmu_name = read_first_line(entry.path() / "caps" / "pmu_name").value_or("");
    const auto max_precise = read_first_line(entry.path() / "caps" / "max_precise");
    if (max_precise) pmu.max_precise = parse_int(*max_precise);
    pmus.push_back(std::move(pmu));
  }
  std::sort(pmus.begin(), pmus.end(), [](const PmuInfo& a, const PmuInfo& b) { return a.name < b.name; });
  return pmus;
}

bool PmuInfo::has_format_term(std::string_view term) const {
  return std::binary_search(format_terms.begin(), format_terms.end(), term);
}

bool is_arm_core_pmu(const PmuInfo& pmu) { return perf::is_arm_core_pmu(pmu.name, !pmu.cpus.empty()); }

const PmuInfo* CpuInfo::find_pmu(std::string_view name) const {
  const auto found = std::find_if(pmus.begin(), pmus.end(), [&](const PmuInfo& pmu) { return pmu.name == name; });
  return found == pmus.end() ? nullptr : &*found;
}

bool CpuInfo::has_core_pmu() const {
  return find_pmu("cpu") != nullptr || find_pmu("cpu_core") != nullptr ||
         std::any_of(pmus.begin(), pmus.end(), is_arm_core_pmu);
}

std::vector<PmuInfo> CpuInfo::hybrid_core_pmus() const {
  std::vector<PmuInfo> core_types;
  std::copy_if(pmus.begin(), pmus.end(), std::back_inserter(core_types),
               [](const PmuInfo& pmu) { return pmu.name.starts_with("cpu_") && !pmu.cpus.empty(); });
  return core_types;
}

std::vector<PmuInfo> CpuInfo::arm_core_pmus() const {
  std::vector<PmuInfo> core_pmus;
  std::copy_if(pmus.begin(), pmus.end(), std::back_inserter(core_pmus), is_arm_core_pmu);
  return core_pmus;
}

std::vector<std::string> CpuInfo::core_pmu_names() const {
  std::vector<std::string> names;
  if (find_pmu("cpu")) names.emplace_back("cpu");
  for (const PmuInfo& pmu : hybrid_core_pmus()) names.push_back(pmu.name);
  for (const PmuInfo& pmu : arm_core_pmus()) names.push_back(pmu.name);
  return names;
}

const PmuInfo* CpuInfo::arm_core_pmu_of(const CoreKind& kind) const {
  const auto counts_on_kind = [&](const PmuInfo& pmu) {
    // A PMU without a cpus file counts on every CPU.
    return is_arm_core_pmu(pmu) && std::all_of(kind.cpus.begin(), kind.cpus.end(), [&](int cpu) {
             return pmu.cpus.empty() || std::find(pmu.cpus.begin(), pmu.cpus.end(), cpu) != pmu.cpus.end();
           });
  };
  const auto found = std::find_if(pmus.begin(), pmus.end(), counts_on_kind);
  return found == pmus.end() ? nullptr : &*found;
}

CpuInfo detect(const fs::path& sysfs_root, const fs::path& procfs_root, CounterCheck check) {
  CpuInfo info;
  info.sysfs_root = sysfs_root;
  info.another_machine = check == CounterCheck::Skip;
  info.core_kinds = read_core_kinds(sysfs_root);
  const auto cpuinfo = read_proc_cpuinfo(procfs_root / "cpuinfo");
  if (!info.core_kinds.empty()) {
    info.id = main_core_kind(info.core_kinds).id;
  } else {
    info.id = info.another_machine && cpuinfo ? cpuinfo->id : read_cpuid();
  }
  info.hypervisor = cpuinfo && cpuinfo->flags.count("hypervisor") != 0;
  info.nmi_watchdog = read_first_line(procfs_root / "sys" / "kernel" / "nmi_watchdog").value_or("0") == "1";
  const fs::path cpu_dir = sysfs_root / "devices" / "system" / "cpu";
  const std::vector<int> online = online_cpus(cpu_dir);
  info.online_cpus = static_cast<int>(online.size());
  const auto cores = cores_by_package(cpu_dir, online);
  info.sockets = static_cast<int>(cores.size());
  info.cores_per_socket = count_cores_per_socket(cores);
  info.smt_enabled = smt_active(cpu_dir);
  const fs::path devices = sysfs_root / "bus" / "event_source" / "devices";
  info.pmus = read_pmus(devices);
  for (const char* core : {"cpu", "cpu_core"}) {
    info.topdown_metrics = info.topdown_metrics || fs::exists(devices / core / "events" / "topdown-retiring");
  }
  info.perf_event_paranoid = read_first_line(procfs_root / "sys" / "kernel" / "perf_event_paranoid").value_or("");
  const bool arm = info.id.vendor == Vendor::Arm;
  // Another machine's counters are not this one's cpuid's: its cpuinfo's
  // flags say, or its model.
  if (!arm) {
    info.reported_counters = !info.another_machine ? general_counters(info.id.vendor, read_counter_leaves())
                             : cpuinfo             ? general_counters(*cpuinfo)
                                                   : 0;
  }
  // A VM may report counters in cpuid while the kernel registered no core PMU;
  // only probe when there is one to open events on.
  if (check == CounterCheck::Run && info.has_core_pmu()) {
    info.working_counters = arm ? probe_arm_event_counters() : probe_working_counters(info.reported_counters);
  }
  return info;
}

}  // namespace topdown::cpu
