#include <fmt/format.h>

#include <algorithm>

#include "report/report.h"
#include "report/value_text.h"

namespace topdown::report {
namespace {

constexpr size_t kTimeWidth = 10;
constexpr size_t kMinValueWidth = 6;  // "100.0%"

std::vector<const eval::NodeResult*> level1_of(const eval::Evaluation& evaluation) {
  std::vector<const eval::NodeResult*> nodes;
  for (const auto& r : evaluation.nodes) {
    if (!r.node->is_info && r.node->level == 1) nodes.push_back(&r);
  }
  return nodes;
}

size_t width_of(const eval::NodeResult& r) { return std::max(r.node->name.size(), kMinValueWidth); }

}  // namespace

std::string render_columns_header(const eval::Evaluation& evaluation) {
  std::string line = fmt::format("#{:>{}}", "time", kTimeWidth - 1);
  for (const auto* r : level1_of(evaluation)) line += fmt::format("  {:>{}} ", r->node->name, width_of(*r));
  return line + "  Bottleneck\n";
}

std::string render_columns_row(const eval::Evaluation& evaluation, std::optional<double> time_s) {
  std::string line =
      time_s ? fmt::format("{:>{}.3f}", *time_s, kTimeWidth) : fmt::format("{:>{}}", "total", kTimeWidth);
  for (const auto* r : level1_of(evaluation)) {
    line += fmt::format("  {:>{}}{:<1}", value_text(*r), width_of(*r), marks(*r));  // values align, marks follow
  }
  const eval::NodeResult* bottleneck = evaluation.bottleneck();
  return line + "  " + (bottleneck ? bottleneck->node->name : "-") + "\n";
}

}  // namespace topdown::report
