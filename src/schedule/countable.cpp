#include "schedule/countable.h"

#include <fmt/format.h>
#include <linux/perf_event.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include "perf/open_failure.h"

namespace topdown::schedule {
namespace {

bool on_core_pmu(const events::Encoding& event) { return event.pmu == "cpu" || event.pmu.starts_with("cpu_"); }

// The event and umask of Intel's architectural events (cycles, instructions,
// reference cycles, LLC references and misses, branches and their misses):
// the ones a PMU the kernel drives as generic_arch_v* counts.
bool architectural(const events::Encoding& event) {
  if (event.type == PERF_TYPE_HARDWARE) return true;
  if (event.fixed_counter && *event.fixed_counter <= 2) return true;
  constexpr std::array<uint64_t, 7> kEventUmasks = {0x003C, 0x00C0, 0x013C, 0x4F2E, 0x412E, 0x00C4, 0x00C5};
  const uint64_t event_umask = event.config & 0xFFFF;
  return std::find(kEventUmasks.begin(), kEventUmasks.end(), event_umask) != kEventUmasks.end();
}

std::string key_of(EventClass kind, const events::Encoding& event) {
  return kind == EventClass::Uncore ? "uncore:" + event.pmu : std::to_string(static_cast<int>(kind));
}

// Why sysfs says the machine does not count the class; nullopt when it may.
std::optional<std::string> sysfs_says_not(EventClass kind, const events::Encoding& event, const cpu::CpuInfo& cpu) {
  if (kind == EventClass::Uncore) {
    if (event.type == events::Encoding::kAbsentPmu) return "no " + event.pmu + " PMU in sysfs";
    return std::nullopt;
  }
  const cpu::PmuInfo* core = cpu.find_pmu(event.pmu);
  if (!core) return "no " + event.pmu + " PMU in sysfs";
  if (core->pmu_name.starts_with("generic_arch")) {
    return "its kernel drives it as " + core->pmu_name + ", which counts only the architectural events";
  }
  // A tree without format files (a test's, an old kernel's) says nothing.
  const bool lists_terms = !core->format_terms.empty();
  switch (kind) {
    case EventClass::PerfMetrics:
      if (!cpu.topdown_metrics) return std::string("no topdown-* events in sysfs");
      break;
    case EventClass::Frontend:
      if (lists_terms && !core->has_format_term("frontend")) return std::string("frontend term missing");
      break;
    case EventClass::OffcoreResponse:
      if (lists_terms && !core->has_format_term("offcore_rsp")) return std::string("offcore_rsp term missing");
      break;
    case EventClass::LoadLatency:
      if (lists_terms && !core->has_format_term("ldlat")) return std::string("ldlat term missing");
      break;
    case EventClass::Precise:
      if (core->max_precise == 0) return std::string("no PEBS (caps/max_precise is 0)");
      break;
    case EventClass::NonArchitectural:
    case EventClass::Uncore:
      break;
  }
  return std::nullopt;
}

bool says_nothing_of_the_pmu(int error) { return error == EACCES || error == EPERM || error == EBUSY; }

}  // namespace

std::optional<EventClass> term_class(std::string_view name) {
  if (name.starts_with("FRONTEND_RETIRED.")) return EventClass::Frontend;
  if (name.starts_with("OCR.") || name.starts_with("OFFCORE_RESPONSE")) return EventClass::OffcoreResponse;
  if (name.find("LOAD_LATENCY") != std::string_view::npos) return EventClass::LoadLatency;
  return std::nullopt;
}

std::optional<EventClass> event_class(const events::Encoding& event) {
  // An Arm core PMU counts what its model names; nothing here tells more.
  if (perf::is_arm_core_pmu(event.pmu, false)) return std::nullopt;
  if (!on_core_pmu(event)) {
    const bool kernel_own = event.type == PERF_TYPE_SOFTWARE || event.type == PERF_TYPE_TRACEPOINT ||
                            event.type == PERF_TYPE_HARDWARE || event.type == PERF_TYPE_HW_CACHE;
    if (kernel_own || event.pmu.empty()) return std::nullopt;
    return EventClass::Uncore;
  }
  if (event.topdown_metric) return EventClass::PerfMetrics;
  if (const auto by_name = term_class(event.name)) return by_name;
  if (event.precise > 0) return EventClass::Precise;
  if (!architectural(event)) return EventClass::NonArchitectural;
  return std::nullopt;
}

std::string class_label(EventClass kind, const events::Encoding& example) {
  switch (kind) {
    case EventClass::PerfMetrics:
      return "PERF_METRICS (TOPDOWN.* fields)";
    case EventClass::Frontend:
      return "FRONTEND_RETIRED.*";
    case EventClass::OffcoreResponse:
      return "OCR.* (offcore response)";
    case EventClass::LoadLatency:
      return "load latency events (ldlat)";
    case EventClass::Precise:
      return "precise (PEBS) events";
    case EventClass::NonArchitectural:
      return "model-specific events";
    case EventClass::Uncore:
      return example.pmu + " events";
  }
  return example.name;
}

Countable Countable::of_machine(const cpu::CpuInfo& cpu, const std::vector<events::Encoding>& needed,
                                const TrialOpen& open) {
  Countable countable;
  std::map<std::string, bool, std::less<>> checked;
  for (const events::Encoding& event : needed) {
    const auto kind = event_class(event);
    if (!kind) continue;
    const std::string key = key_of(*kind, event);
    if (!checked.emplace(key, true).second) continue;
    std::optional<std::string> why = sysfs_says_not(*kind, event, cpu);
    if (!why && open) {
      const int error = open(event);
      if (error != 0 && !says_nothing_of_the_pmu(error)) {
        why = fmt::format("opening {} failed ({})", event.name, std::strerror(error));
      }
    }
    if (why) {
      countable.missing_.emplace(key, MissingClass{class_label(*kind, event), *why});
    } else {
      countable.counting_.push_back(class_label(*kind, event));
    }
  }
  return countable;
}

std::optional<std::string> Countable::why_not(const events::Encoding& event) const {
  if (missing_.empty()) return std::nullopt;
  const auto kind = event_class(event);
  auto found = missing_.find(kind ? key_of(*kind, event) : "event:" + event.name);
  if (found == missing_.end()) return std::nullopt;
  return fmt::format("this machine's PMU does not count {}: {}, a virtual machine?", found->second.label,
                     found->second.why);
}

std::optional<std::string> Countable::why_not(std::string_view name, std::string_view core_pmu) const {
  events::Encoding unencoded;
  unencoded.name = std::string(name);
  unencoded.pmu = std::string(core_pmu);
  if (!term_class(name)) return std::nullopt;
  return why_not(unencoded);
}

std::vector<MissingClass> Countable::missing() const {
  std::vector<MissingClass> classes;
  for (const auto& [key, missing] : missing_) classes.push_back(missing);
  return classes;
}

void Countable::refuse(const events::Encoding& event, std::string why) {
  const auto kind = event_class(event);
  const std::string key = kind ? key_of(*kind, event) : "event:" + event.name;
  missing_.emplace(key, MissingClass{kind ? class_label(*kind, event) : event.name, std::move(why)});
}

}  // namespace topdown::schedule
