#include "profile/attribute.h"

#include <algorithm>
#include <array>
#include <functional>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "common/strings.h"

namespace topdown::profile {
namespace {

constexpr std::array<std::string_view, 7> kClockEvents = {"cpu_clk_unhalted.thread",
                                                          "cpu_clk_unhalted.thread_p",
                                                          "cpu_clk_unhalted.core",
                                                          "ls_not_halted_cyc",
                                                          "cpu_cycles",
                                                          "cpu-clock",
                                                          "task-clock"};

constexpr const char* kUnknown = "[unknown]";

// What every sample of one group adds to a function, before the times.
struct GroupTotals {
  std::vector<double> values;
  uint64_t samples = 0;
};

struct Accumulator {
  std::vector<GroupTotals> groups;
  double clock = 0;
};

void add_sample(Accumulator& into, const recording::Sample& sample, const recording::Recording& recording,
                const std::vector<int>& clock_slot) {
  GroupTotals& totals = into.groups[sample.group];
  const size_t size = recording.header.groups[sample.group].events.size();
  if (totals.values.empty()) totals.values.assign(size, 0);
  const uint64_t* deltas = recording.values.data() + sample.first_value;
  for (size_t i = 0; i < size; ++i) totals.values[i] += static_cast<double>(deltas[i]);
  ++totals.samples;
  if (clock_slot[sample.group] >= 0) into.clock += static_cast<double>(deltas[clock_slot[sample.group]]);
}

Function finish(const Accumulator& totals, const recording::Header& header, std::string name, std::string module) {
  Function function;
  function.name = std::move(name);
  function.module = std::move(module);
  function.clock = totals.clock;
  for (size_t g = 0; g < header.groups.size(); ++g) {
    const recording::SampledGroup& group = header.groups[g];
    const GroupTotals& sums = totals.groups[g];
    function.group_samples.push_back(sums.samples);
    function.samples += sums.samples;
    const bool timed = group.time_enabled > 0;
    for (size_t i = 0; i < group.events.size(); ++i) {
      counts::Count count;
      count.value = sums.values.empty() ? 0 : sums.values[i];
      count.time_enabled = timed ? group.time_enabled : 1;
      count.time_running = timed ? group.time_running : 1;
      function.counts.add(group.copies.key_of(group.events[i]), count);
    }
  }
  return function;
}

}  // namespace

std::string clock_event(const recording::Header& header) {
  for (std::string_view wanted : kClockEvents) {
    for (const auto& group : header.groups) {
      for (const auto& event : group.events) {
        if (lowercase(event) == wanted) return event;
      }
    }
  }
  return header.groups.empty() ? "" : header.groups[0].events[0];
}

std::vector<int> clock_slots(const recording::Header& header, const std::string& clock) {
  std::vector<int> slots;
  for (const auto& group : header.groups) {
    auto found = std::find(group.events.begin(), group.events.end(), clock);
    slots.push_back(found == group.events.end() ? -1 : static_cast<int>(found - group.events.begin()));
  }
  return slots;
}

Attribution attribute_in_order(const recording::Recording& recording, const std::vector<FunctionName>& names,
                               const std::function<void(const recording::Sample&, std::vector<uint32_t>&)>& charged) {
  const recording::Header& header = recording.header;
  Attribution result;
  result.clock_event = clock_event(header);
  const std::vector<int> clock_slot = clock_slots(header, result.clock_event);

  const Accumulator empty{std::vector<GroupTotals>(header.groups.size()), 0};
  std::vector<Accumulator> totals(names.size(), empty);
  Accumulator whole = empty;
  uint64_t first_time = UINT64_MAX;
  uint64_t last_time = 0;
  std::vector<uint32_t> functions;
  for (const auto& sample : recording.samples) {
    functions.clear();
    charged(sample, functions);
    for (const uint32_t function : functions) add_sample(totals[function], sample, recording, clock_slot);
    add_sample(whole, sample, recording, clock_slot);
    first_time = std::min(first_time, sample.time);
    last_time = std::max(last_time, sample.time);
  }

  result.whole = finish(whole, header, "[whole program]", "");
  result.whole.share = whole.clock > 0 ? 1.0 : 0.0;
  if (last_time > first_time) result.whole.counts.duration_s = static_cast<double>(last_time - first_time) * 1e-9;
  for (uint32_t i = 0; i < names.size(); ++i) {
    Function function = finish(totals[i], header, names[i].name, names[i].module);
    function.callers = names[i].callers;
    function.share = whole.clock > 0 ? function.clock / whole.clock : 0.0;
    // A function's wall time is its share of the clock: what rates per
    // second (faults/s) and time-based nodes of the function are over.
    function.counts.duration_s = result.whole.counts.duration_s * function.share;
    result.functions.push_back(std::move(function));
  }
  return result;
}

Attribution attribute_to(const recording::Recording& recording, const std::vector<FunctionName>& names,
                         const std::function<void(const recording::Sample&, std::vector<uint32_t>&)>& charged) {
  Attribution result = attribute_in_order(recording, names, charged);
  // The unknown entry when every sample was named, a name no sample fed.
  std::erase_if(result.functions, [](const Function& function) { return function.samples == 0; });
  std::sort(result.functions.begin(), result.functions.end(), [](const Function& x, const Function& y) {
    if (x.share != y.share) return x.share > y.share;
    if (x.samples != y.samples) return x.samples > y.samples;
    return std::tie(x.name, x.module, x.callers) < std::tie(y.name, y.module, y.callers);
  });
  return result;
}

uint32_t FunctionNames::index(const std::string& name, const std::string& module) {
  auto [entry, fresh] = index_.try_emplace(name + '\0' + module, static_cast<uint32_t>(names_.size()));
  if (fresh) names_.push_back({name, module, {}});
  return entry->second;
}

Attribution attribute(const recording::Recording& recording) {
  // Functions by (name, module): several symbols (source lines) feed one.
  FunctionNames names;
  std::vector<uint32_t> function_of_symbol;
  for (const auto& symbol : recording.symbols)
    function_of_symbol.push_back(names.index(symbol.function, symbol.module));
  const uint32_t unknown = names.index(kUnknown, kUnknown);
  return attribute_to(recording, names.all(), [&](const recording::Sample& sample, std::vector<uint32_t>& charged) {
    charged.push_back(sample.symbol < function_of_symbol.size() ? function_of_symbol[sample.symbol] : unknown);
  });
}

}  // namespace topdown::profile
