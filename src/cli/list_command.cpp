#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/output.h"
#include "model/model.h"

namespace topdown::cli {
namespace {

model::Model model_for(const std::string& cpu_override) {
  return model::select_model(model::default_model_dir(), cpu::read_cpuid(), cpu_override);
}

std::string join(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

}  // namespace

int run_list(const std::string& cpu) {
  model::Model model = model_for(cpu);
  std::string out = fmt::format("{} ({})\n\n", model.title, model.name);
  for (const auto& node : model.nodes) {
    if (node.is_info) continue;
    out += fmt::format("  {:<40} level {}  {}\n", std::string(2 * static_cast<size_t>(node.level - 1), ' ') + node.name,
                       node.level, node.vendor_name);
  }
  out += "\nInfo metrics\n";
  for (const auto& node : model.nodes) {
    if (node.is_info) out += fmt::format("  {:<40} {}\n", node.name, node.unit);
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

int run_describe(const std::string& name, const std::string& cpu) {
  model::Model model = model_for(cpu);
  const model::Node* node = model.find(name);
  if (!node) {
    throw Error("model " + model.name + " has no node or Info metric '" + name + "'; `topdown list` shows them");
  }
  std::string out = fmt::format("{}{}\n", node->name, node->vendor_name.empty() ? "" : " (" + node->vendor_name + ")");
  if (!node->is_info) out += fmt::format("  level {}{}\n", node->level, node->parent.empty() ? "" : ", under " + node->parent);
  out += fmt::format("  {}\n", node->description);
  out += fmt::format("  formula:   {}\n", node->formula.to_string());
  if (node->identity) out += fmt::format("  identity:  {}\n", node->identity->to_string());
  if (node->threshold) out += fmt::format("  threshold: {}\n", node->threshold->to_string());
  if (!node->domain.empty()) out += fmt::format("  domain:    {}\n", node->domain);
  if (!node->unit.empty()) out += fmt::format("  unit:      {}\n", node->unit);
  if (!node->area.empty()) out += fmt::format("  area:      {}\n", node->area);
  if (!node->groups.empty()) out += fmt::format("  groups:    {}\n", join(node->groups));
  if (!node->sample_events.empty()) out += fmt::format("  sample:    {}\n", join(node->sample_events));
  if (!node->advice.empty()) out += fmt::format("  advice:    {}\n", node->advice);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return 0;
}

}  // namespace topdown::cli
