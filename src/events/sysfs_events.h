#pragma once
// The PMUs the kernel registered under /sys/bus/event_source/devices: their
// perf type, format and named events.
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cpu/cpu_info.h"
#include "events/event.h"
#include "events/pmu_format.h"
#include "events/raw_syntax.h"

namespace topdown::events {

// The box number of `pmu` in a family registered box by box ("uncore_cha_3"
// in "uncore_cha": 3); nullopt for a PMU of another family or none.
std::optional<unsigned long> box_number(std::string_view pmu, std::string_view family);

// The Arm core PMU's name when sysfs has none to tell it: the one ACPI
// servers (Graviton, Grace, Axion, Cobalt, Altra) register.
inline constexpr std::string_view kAssumedArmCorePmu = "armv8_pmuv3_0";

class SysfsPmus {
 public:
  // `core_pmu` as ResolverConfig::core_pmu.
  // `cpu`: the CPU whose PMUs these are (another CPU's uncore layout when
  // they are absent depends on its generation).
  SysfsPmus(std::filesystem::path devices_dir, cpu::CpuId cpu, std::string core_pmu = "");

  // "cpu", the core PMU of one core type on hybrid Intel parts, or the Arm
  // core PMU (armv8_pmuv3_0, ...; kAssumedArmCorePmu when sysfs has none); a
  // spelling cpu/.../ and raw rNNN events mean it.
  const std::string& core_pmu() const { return core_pmu_; }
  // Throws topdown::Error when the PMU is not registered.
  uint32_t type(std::string_view pmu) const;
  // The core PMU falls back to the built-in x86 layout when sysfs has none.
  PmuFormat format(std::string_view pmu) const;
  // The format that packs modifiers (:c1 ...) onto `encoding`: an event of a
  // PMU this machine lacks (another CPU's uncore) uses the layout encode()
  // gave its terms.
  PmuFormat modifier_format(const Encoding& encoding) const;
  // The terms of <pmu>/events/<name>, e.g. "event=0x3c,umask=0x00".
  std::optional<std::string> named_event(std::string_view pmu, std::string_view name) const;

  // Packs a "pmu/term=value,.../" spelling; `requested` becomes the name
  // unless a name= term gives one. Throws topdown::Error naming a bad term,
  // or an unregistered PMU unless `pmu_may_be_absent`: then the type is
  // Encoding::kAbsentPmu and the terms use the x86 core layout, which Intel's
  // client uncore PMUs share.
  Encoding encode(const PmuSpelling& spelling, std::string_view requested, bool pmu_may_be_absent = false) const;

 private:
  std::filesystem::path pmu_dir(std::string_view pmu) const;
  void pack_term(const PmuFormat& format, const PmuTerm& term, std::string_view pmu, Encoding& encoding,
                 bool expand_aliases) const;

  // What sysfs says of one PMU, read once: a model's table encodes hundreds
  // of events on the same PMU, and each look would cost several file reads.
  struct PmuFacts {
    std::optional<uint32_t> type;  // nullopt when the PMU is not registered
    bool uncore = false;           // it has a cpumask: counted per socket
    PmuFormat format;
    std::vector<uint32_t> box_types;  // Encoding::box_types: a family's boxes, in box order
    std::vector<int> cpus;            // the cpumask of an uncore PMU
  };
  // What a family registered box by box says (uncore_cha_0, uncore_cha_1,
  // ...): the first box's facts, and every box's type.
  PmuFacts family_facts(std::string_view family) const;
  PmuFacts single_facts(std::string_view pmu) const;
  std::optional<uint32_t> read_type(std::string_view pmu) const;  // nullopt: not registered
  PmuFormat absent_format(std::string_view pmu) const;
  const PmuFacts& facts(std::string_view pmu) const;

  std::filesystem::path devices_dir_;
  cpu::CpuId cpu_;
  std::string core_pmu_;
  mutable std::mutex facts_mutex_;
  mutable std::map<std::string, PmuFacts, std::less<>> facts_;
};

}  // namespace topdown::events
