#include "profile/call_stacks.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "common/error.h"
#include "profile/stack_functions.h"

namespace topdown::profile {
namespace {

std::string_view without_parameters(std::string_view name) {
  // The parameters are the last balanced parentheses (operator() aside).
  if (name.empty() || name.back() != ')') return name;
  int depth = 0;
  for (std::size_t i = name.size(); i-- > 0;) {
    if (name[i] == ')') ++depth;
    if (name[i] == '(' && --depth == 0) return name.substr(0, i);
  }
  return name;
}

}  // namespace

bool names_function(std::string_view name, std::string_view wanted) {
  if (wanted.empty()) return false;
  if (name == wanted) return true;
  const std::string_view bare = without_parameters(name);
  if (bare == wanted) return true;
  return bare.size() > wanted.size() + 2 && bare.ends_with(wanted) &&
         bare.substr(bare.size() - wanted.size() - 2, 2) == "::";
}

Attribution attribute_children(const recording::Recording& recording) {
  const StackFunctions stacks(recording);
  // Each function once per sample: the sample it was last charged with.
  std::vector<std::size_t> charged_with(stacks.names().size(), SIZE_MAX);
  std::size_t sample_number = 0;
  std::vector<uint32_t> on_stack;
  return attribute_to(recording, stacks.names(), [&](const recording::Sample& sample, std::vector<uint32_t>& charged) {
    stacks.of(sample, on_stack);
    for (const uint32_t function : on_stack) {
      if (charged_with[function] == sample_number) continue;
      charged_with[function] = sample_number;
      charged.push_back(function);
    }
    ++sample_number;
  });
}

Attribution attribute_callers(const recording::Recording& recording, std::string_view wanted, const std::string& file) {
  const StackFunctions stacks(recording);
  std::vector<bool> is_wanted;
  for (const FunctionName& name : stacks.names()) is_wanted.push_back(names_function(name.name, wanted));
  // Paths by their functions, outermost first.
  std::map<std::vector<uint32_t>, uint32_t> path_index;
  std::vector<FunctionName> paths;
  std::vector<uint32_t> on_stack;
  std::vector<uint32_t> path;
  std::vector<uint32_t> path_of_sample;  // UINT32_MAX: the function is not on its stack
  for (const recording::Sample& sample : recording.samples) {
    stacks.of(sample, on_stack);
    uint32_t charged = UINT32_MAX;
    const auto outermost = std::find_if(on_stack.rbegin(), on_stack.rend(), [&](uint32_t f) { return is_wanted[f]; });
    if (outermost != on_stack.rend()) {
      const std::size_t at = static_cast<std::size_t>(on_stack.rend() - outermost) - 1;
      const std::size_t last = std::min(on_stack.size() - 1, at + kCallerDepth);
      path.assign(on_stack.begin() + static_cast<std::ptrdiff_t>(at),
                  on_stack.begin() + static_cast<std::ptrdiff_t>(last) + 1);
      std::reverse(path.begin(), path.end());
      auto [entry, fresh] = path_index.try_emplace(path, static_cast<uint32_t>(paths.size()));
      if (fresh) {
        const FunctionName& function = stacks.names()[*outermost];
        FunctionName named{function.name, function.module, {}};
        for (const uint32_t caller : path) named.callers.push_back(stacks.names()[caller].name);
        paths.push_back(std::move(named));
      }
      charged = entry->second;
    }
    path_of_sample.push_back(charged);
  }
  if (paths.empty()) {
    throw Error(
        fmt::format("--callers {}: no call stack of {} holds a function of that name; give a function the "
                    "report --children lists",
                    wanted, file));
  }
  std::size_t sample_number = 0;
  return attribute_to(recording, paths, [&](const recording::Sample&, std::vector<uint32_t>& charged) {
    const uint32_t of_sample = path_of_sample[sample_number++];
    if (of_sample != UINT32_MAX) charged.push_back(of_sample);
  });
}

}  // namespace topdown::profile
