#include "settings/record.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "common/error.h"
#include "perf/user_registers.h"
#include "settings/stat.h"

namespace topdown::settings {

perf::SampleRate sample_rate(const RecordOptions& options) {
  if (options.period) return {0, *options.period};
  return {options.frequency.value_or(kDefaultFrequency), 0};
}

perf::CallStacks call_stacks(const RecordOptions& options) {
  perf::CallStacks stacks;
  const std::string& mode = options.call_graph;
  if (options.frame_pointers || mode == "fp") {
    stacks.mode = perf::CallGraph::FramePointers;
  } else if (mode == "dwarf" || mode.starts_with("dwarf,")) {
    if (perf::user_register_mask() == 0) {
      throw Error("--call-graph dwarf: this topdown cannot unwind stacks on this architecture; use -g");
    }
    stacks.mode = perf::CallGraph::Dwarf;
    if (mode.size() > 6) {
      const std::string size = mode.substr(6);
      uint64_t bytes = 0;
      const auto [end, error] = std::from_chars(size.data(), size.data() + size.size(), bytes);
      if (error != std::errc() || end != size.data() + size.size() || bytes == 0 || bytes % 8 != 0 ||
          bytes > perf::kMaxStackBytes) {
        throw Error(fmt::format("--call-graph {}: give the stack bytes to copy as a multiple of 8 from 8 to {}", mode,
                                perf::kMaxStackBytes));
      }
      stacks.stack_bytes = static_cast<uint32_t>(bytes);
    }
  } else if (!mode.empty()) {
    throw Error("--call-graph " + mode + ": give fp (frame pointers, as -g) or dwarf[,SIZE]");
  }
  if (options.max_stack) {
    if (stacks.mode == perf::CallGraph::None) throw Error("--max-stack: give it with -g or --call-graph");
    stacks.max_stack = static_cast<uint16_t>(*options.max_stack);
  }
  return stacks;
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
