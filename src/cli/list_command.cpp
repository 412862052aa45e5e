#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/context.h"
#include "cli/output.h"
#include "cli/standard_streams.h"
#include "common/strings.h"
#include "model/model.h"

#include <set>

namespace topdown::cli {
namespace {

model::Model model_for(const std::string& cpu_override, const std::string& metrics_file) {
  return choose_model(cpu::read_cpuid(), cpu_override, metrics_file);
}

}  // namespace

std::string threshold_of(const model::Node& node) { return node.threshold ? node.threshold->to_string() : "-"; }

// The definitions `formula` uses, and those they use, each once, in model order.
std::vector<std::string> definitions_used(const model::Model& model, const expr::Expression& formula) {
  std::set<std::string> wanted;
  const std::set<std::string> used_by_formula = formula.identifiers();
  std::vector<std::string> pending(used_by_formula.begin(), used_by_formula.end());
  while (!pending.empty()) {
    const std::string name = pending.back();
    pending.pop_back();
    for (const auto& [defined, definition] : model.definitions) {
      if (defined != name || !wanted.insert(name).second) continue;
      const std::set<std::string> used_by_definition = definition.identifiers();
      pending.insert(pending.end(), used_by_definition.begin(), used_by_definition.end());
    }
  }
  std::vector<std::string> lines;
  for (const auto& [defined, definition] : model.definitions) {
    if (wanted.count(defined)) lines.push_back(defined + " = " + definition.to_string());
  }
  return lines;
}

int run_list(const std::string& cpu, const std::string& metrics_file) {
  model::Model model = model_for(cpu, metrics_file);
  std::string out = fmt::format("{} ({})\n", model.title, model.name);
  if (!model.core_type.empty()) {
    out += fmt::format("the {} tree of a hybrid CPU, counted on its {} PMU{}\n", model.core_type, model.pmu,
                       model.companion.empty() ? "" : "; the other core type's: topdown list --cpu " + model.companion);
  }
  out += "\n";
  out += fmt::format("  {:<34} {:>5}  {:<16} {:<8} {:<40} {}\n", "Node", "Level", "Domain", "Area", "Threshold",
                     "Vendor metric");
  for (const auto& node : model.nodes) {
    if (node.is_info) continue;
    out += fmt::format("  {:<34} {:>5}  {:<16} {:<8} {:<40} {}\n",
                       std::string(2 * static_cast<size_t>(node.level - 1), ' ') + node.name, node.level, node.domain,
                       node.area, threshold_of(node), node.vendor_name);
  }
  out += fmt::format("\n  {:<34} {:<24} {:<24} {}\n", "Info metric", "Unit", "Threshold", "Groups");
  for (const auto& node : model.nodes) {
    if (node.is_info) {
      out +=
          fmt::format("  {:<34} {:<24} {:<24} {}\n", node.name, node.unit, threshold_of(node), join(node.groups, ", "));
    }
  }
  write_stdout(out);
  return 0;
}

int run_describe(const std::string& name, const std::string& cpu, const std::string& metrics_file) {
  model::Model model = model_for(cpu, metrics_file);
  const model::Node* node = model.find(name);
  if (!node) {
    throw Error("model " + model.name + " has no node or Info metric '" + name + "'; `topdown list` shows them");
  }
  std::string out = fmt::format("{}{}\n", node->name, node->vendor_name.empty() ? "" : " (" + node->vendor_name + ")");
  if (!node->is_info)
    out += fmt::format("  level {}{}\n", node->level, node->parent.empty() ? "" : ", under " + node->parent);
  out += fmt::format("  {}\n", node->description);
  out += fmt::format("  formula:   {}\n", node->formula.to_string());
  for (const std::string& line : definitions_used(model, node->formula)) out += fmt::format("    where    {}\n", line);
  if (node->identity) out += fmt::format("  identity:  {}\n", node->identity->to_string());
  if (node->fallback)
    out += fmt::format("  fallback:  {} (import, when the file lacks events of the formula)\n",
                       node->fallback->to_string());
  if (node->threshold) out += fmt::format("  threshold: {}\n", node->threshold->to_string());
  if (!node->domain.empty()) out += fmt::format("  domain:    {}\n", node->domain);
  if (!node->unit.empty()) out += fmt::format("  unit:      {}\n", node->unit);
  if (!node->area.empty()) out += fmt::format("  area:      {}\n", node->area);
  if (!node->groups.empty()) out += fmt::format("  groups:    {}\n", join(node->groups, ", "));
  if (!node->sample_events.empty()) out += fmt::format("  sample:    {}\n", join(node->sample_events, ", "));
  if (!node->advice.empty()) out += fmt::format("  advice:    {}\n", node->advice);
  write_stdout(out);
  return 0;
}

}  // namespace topdown::cli
