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

recording::Header record_header(const RecordOptions& options, const cpu::CpuInfo& cpu, const std::string& model_name,
                                const model::RunVariables& vars) {
  const StatOptions& live = options.live;
  recording::Header header;
  header.model = model_name;
  header.cpu = cpu.id.brand.empty() ? cpu.id.vendor_string : cpu.id.brand;
  header.level = live.report.level;
  std::string place;
  if (!live.pids.empty()) {
    place = "-p";
    for (std::size_t i = 0; i < live.pids.size(); ++i) place += (i ? "," : " ") + std::to_string(live.pids[i]);
  } else if (live.system_wide || !live.cpu_list.empty()) {
    place = live.cpu_list.empty() ? "-a" : "-C " + live.cpu_list;
  }
  std::string command;
  for (const std::string& word : live.command) command += (command.empty() ? "" : " ") + word;
  header.command = place.empty() ? command : command.empty() ? place : place + " -- " + command;
  header.smt_enabled = vars.smt_enabled;
  header.cpus_online = cpu.online_cpus > 0 ? cpu.online_cpus : 1;
  return header;
}

}  // namespace topdown::settings
