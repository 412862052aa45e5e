#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

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

std::string time_cell(std::optional<double> time_s) {
  return time_s ? fmt::format("{:>{}.3f}", *time_s, kTimeWidth) : fmt::format("{:>{}}", "total", kTimeWidth);
}

std::string level1_headings(const eval::Evaluation& evaluation) {
  std::string line;
  for (const auto* r : level1_of(evaluation)) line += fmt::format("  {:>{}} ", r->node->name, width_of(*r));
  return line;
}

std::string level1_cells(const eval::Evaluation& evaluation) {
  std::string line;
  for (const auto* r : level1_of(evaluation)) {
    line += fmt::format("  {:>{}}{:<1}", value_text(*r), width_of(*r), marks(*r));  // values align, marks follow
  }
  return line;
}

std::string bottleneck_name(const eval::Evaluation& evaluation) {
  const eval::NodeResult* bottleneck = evaluation.bottleneck();
  return bottleneck ? bottleneck->node->name : "-";
}

// A core type's bottleneck column, when another type's columns follow it:
// as wide as the longest name of its tree, so that the next block aligns.
size_t bottleneck_width(const eval::Evaluation& evaluation) {
  size_t width = std::string_view("Bottleneck").size();
  for (const auto& r : evaluation.nodes) {
    if (!r.node->is_info) width = std::max(width, r.node->name.size());
  }
  return width;
}

size_t share_width(const std::string& core_type) { return std::max(core_type.size(), kMinValueWidth); }

}  // namespace

std::string render_columns_header(const eval::Evaluation& evaluation) {
  return fmt::format("#{:>{}}", "time", kTimeWidth - 1) + level1_headings(evaluation) + "  Bottleneck\n";
}

std::string render_columns_row(const eval::Evaluation& evaluation, std::optional<double> time_s) {
  return time_cell(time_s) + level1_cells(evaluation) + "  " + bottleneck_name(evaluation) + "\n";
}

std::string render_core_type_columns_header(const std::vector<Report>& reports) {
  std::string line = fmt::format("#{:>{}}", "time", kTimeWidth - 1);
  for (size_t i = 0; i < reports.size(); ++i) {
    const eval::Evaluation& evaluation = reports[i].evaluation;
    const bool last = i + 1 == reports.size();
    line += fmt::format("  {:>{}} ", reports[i].core_type, share_width(reports[i].core_type)) +
            level1_headings(evaluation) +
            fmt::format("  {:<{}}", "Bottleneck", last ? size_t{0} : bottleneck_width(evaluation));
  }
  return line + "\n";
}

std::string render_core_type_columns_row(const std::vector<Report>& reports, std::optional<double> time_s) {
  std::string line = time_cell(time_s);
  for (size_t i = 0; i < reports.size(); ++i) {
    const Report& report = reports[i];
    const eval::Evaluation& evaluation = report.evaluation;
    const bool last = i + 1 == reports.size();
    const std::string share = report.core_share ? fmt::format("{:.1f}%", *report.core_share * 100) : "-";
    line += fmt::format("  {:>{}} ", share, share_width(report.core_type)) + level1_cells(evaluation) +
            fmt::format("  {:<{}}", bottleneck_name(evaluation), last ? size_t{0} : bottleneck_width(evaluation));
  }
  return line + "\n";
}

}  // namespace topdown::report
