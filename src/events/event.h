#pragma once
// Event resolution: an event name as written in a model, on the command line
// or in an imported file, turned into what perf_event_open needs.
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cpu/cpu_info.h"
#include "perf/event.h"

namespace topdown::events {

struct Encoding {
  std::string name;  // as requested, e.g. "UOPS_EXECUTED.CORE:c1"
  // perf_event_attr.type of a PMU that this machine has not registered: an
  // event of our tables for another CPU (an uncore PMU, say). It resolves, so
  // plans and imports work, but it cannot be opened here.
  static constexpr uint32_t kAbsentPmu = 0xFFFFFFFF;

  std::string pmu;    // "cpu", "msr", "uncore_arb", ... ("cpu" when raw)
  uint32_t type = 4;  // perf_event_attr.type (PERF_TYPE_RAW by default), or kAbsentPmu
  uint64_t config = 0;
  uint64_t config1 = 0;  // e.g. OFFCORE_RESPONSE MSR value
  uint64_t config2 = 0;
  bool exclude_user = false;    // ":SUP" / ":sup" / ":k"
  bool exclude_kernel = false;  // ":USER" / ":user" / ":u"
  int precise = 0;              // ":p" / ":pp" / ":ppp"
  // Counters the event may use (bit i = general counter i); all bits set when
  // unconstrained.
  uint64_t counter_mask = ~0ull;
  // Intel fixed counter index (0 = INST_RETIRED.ANY, 1 = CPU_CLK_UNHALTED.THREAD,
  // 2 = CPU_CLK_UNHALTED.REF_TSC, 3 = TOPDOWN.SLOTS); such events do not use a
  // general counter.
  std::optional<int> fixed_counter;
  bool uncore = false;  // counted per socket, not per thread
  // A server's uncore unit the kernel registers once per box (uncore_cha_0,
  // uncore_cha_1, ...; `pmu` is then the family's name, uncore_cha): the event
  // is opened on every box, each its own perf type, and the boxes' counts
  // are added up. Empty for a PMU registered once, or one this machine lacks.
  std::vector<uint32_t> box_types;
  // The CPUs an uncore PMU counts on (its cpumask: one per socket or die),
  // where the collector opens it; empty for other PMUs.
  std::vector<int> uncore_cpus;
  // One of Intel's PERF_METRICS fields (Ice Lake on): it takes no counter,
  // reads as slots, and must be in a group led by TOPDOWN.SLOTS.
  bool topdown_metric = false;
  // The count of the whole core, both SMT threads (":percore"): the same
  // counter, added up over the core's CPUs when counting per CPU. Counting
  // one process it is only the process's own count.
  bool percore = false;
  std::string source;  // "raw", "sysfs", "libpfm4", "table:<name>"

  // perf command-line spelling: "cpu/config=0x100003c,config1=0x..,name=.../"
  // (plus "u"/"k"/"pp"), so that `perf stat -e` counts exactly this. The
  // name is left out when perf could misread it (e.g. it contains ',').
  std::string perf_spelling() const;

  // The event as perf_event_open is asked to count it. The kernel (and the
  // hypervisor) are left out unless `include_kernel` (--kernel) or the event
  // counts the kernel only (":SUP").
  perf::Event perf_event(bool include_kernel) const;
};

// Everything needed to resolve names for one CPU.
struct ResolverConfig {
  cpu::CpuInfo cpu;
  // Our own tables (models/events/*.events) to consult, in order.
  std::vector<std::filesystem::path> tables;
  // libpfm4 PMU name for this CPU (e.g. "amd64_fam19h_zen4", "hsw"); empty to
  // let libpfm4 pick the host's default PMU, "-" to skip libpfm4.
  std::string pfm_pmu;
  std::filesystem::path sysfs_devices = "/sys/bus/event_source/devices";
  // The PMU core events open on, which the generic spelling cpu/.../ (our
  // tables') and raw rNNN events mean: a hybrid CPU's cpu_core or cpu_atom
  // (the model's pmu key), or on Arm the PMU of the model's core kind.
  // Empty: "cpu", "cpu_core" where sysfs has no "cpu", or the first Arm core
  // PMU (for an Arm CPU whose sysfs has none, kAssumedArmCorePmu).
  std::string core_pmu;
};

class Resolver {
 public:
  explicit Resolver(ResolverConfig config);
  ~Resolver();
  Resolver(Resolver&&) noexcept;
  Resolver& operator=(Resolver&&) noexcept;

  // Accepted spellings, tried in this order:
  //   rNNN                          raw config (hex)
  //   pmu/term=value,.../[mods]     perf PMU syntax, terms from sysfs format
  //                                 files (built-in x86 core layout if absent)
  //   pmu/name/                     a sysfs named event of that PMU
  //   NAME[:mod...]                 our tables, then perf's software events
  //                                 (task-clock, page-faults, ...), then
  //                                 libpfm4, then sysfs named events of the
  //                                 core PMU
  // Modifiers (TMA style): :cN cmask, :iN invert, :eN edge, :uXX umask,
  // :SUP kernel only, :USER user only (both in any case), :p/:pp/:ppp precise.
  // Throws topdown::Error "unknown event 'X' for <cpu>: ..." when nothing knows it.
  Encoding resolve(std::string_view name) const;

  // True when resolve() would succeed.
  bool knows(std::string_view name) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace topdown::events
