#include "events/software_events.h"

#include <linux/perf_event.h>

#include <array>
#include <utility>

namespace topdown::events {
namespace {

// perf's spellings and aliases of the events that count something.
constexpr std::array<std::pair<std::string_view, uint64_t>, 13> kSoftwareEvents = {{
    {"cpu-clock", PERF_COUNT_SW_CPU_CLOCK},
    {"task-clock", PERF_COUNT_SW_TASK_CLOCK},
    {"page-faults", PERF_COUNT_SW_PAGE_FAULTS},
    {"faults", PERF_COUNT_SW_PAGE_FAULTS},
    {"context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"cs", PERF_COUNT_SW_CONTEXT_SWITCHES},
    {"cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS},
    {"migrations", PERF_COUNT_SW_CPU_MIGRATIONS},
    {"minor-faults", PERF_COUNT_SW_PAGE_FAULTS_MIN},
    {"major-faults", PERF_COUNT_SW_PAGE_FAULTS_MAJ},
    {"alignment-faults", PERF_COUNT_SW_ALIGNMENT_FAULTS},
    {"emulation-faults", PERF_COUNT_SW_EMULATION_FAULTS},
    {"cgroup-switches", PERF_COUNT_SW_CGROUP_SWITCHES},
}};

}  // namespace

std::optional<Encoding> software_event(std::string_view name) {
  for (const auto& [perf_name, config] : kSoftwareEvents) {
    if (perf_name != name) continue;
    Encoding encoding;
    encoding.name = std::string(name);
    encoding.pmu = "software";
    encoding.type = PERF_TYPE_SOFTWARE;
    encoding.config = config;
    encoding.source = "software";
    return encoding;
  }
  return std::nullopt;
}

}  // namespace topdown::events
