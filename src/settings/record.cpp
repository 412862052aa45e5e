#include "settings/record.h"

#include <algorithm>

#include "common/error.h"
#include "settings/stat.h"

namespace topdown::settings {

perf::SampleRate sample_rate(const RecordOptions& options) {
  if (options.period) return {0, *options.period};
  return {options.frequency.value_or(kDefaultFrequency), 0};
}

void check_recordable(const RecordOptions& options, const cpu::CpuInfo& cpu, const model::Model& model) {
  const StatOptions& live = options.live;
  const bool has_target = !live.command.empty() || !live.pids.empty() || live.system_wide || !live.cpu_list.empty();
  if (!has_target) {
    throw Error("no command to record; usage: topdown record [options] -- CMD [ARGS...] (or -p PID, or -a)");
  }
  check_countable(live, cpu, model);
}

std::vector<collect::CounterGroup> sampled_groups(const schedule::Plan& plan, const collect::Target& target) {
  std::vector<collect::CounterGroup> groups;
  for (collect::CounterGroup& group : counted_groups(plan, aggregate::View::Global, target).groups) {
    const bool uncore = std::any_of(group.events.begin(), group.events.end(),
                                    [](const events::Encoding& event) { return event.uncore; });
    if (!uncore) groups.push_back(std::move(group));
  }
  return groups;
}

}  // namespace topdown::settings
