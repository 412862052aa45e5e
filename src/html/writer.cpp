#include <limits>

#include "html/html.h"

namespace topdown::html {

constexpr float kNa = std::numeric_limits<float>::quiet_NaN();

HtmlWriter::HtmlWriter(const model::Model& model, PageInfo info) : model_(model), info_(std::move(info)) {}

size_t HtmlWriter::series_index(const std::string& scope) {
  for (size_t i = 0; i < series_.size(); ++i) {
    if (series_[i].scope == scope) return i;
  }
  // A unit first seen now (a thread that started) was absent before.
  Series series;
  series.scope = scope;
  series.values.assign(tree_nodes_.size(), std::vector<float>(times_.size() - 1, kNa));
  series.bottleneck.assign(times_.size() - 1, -1);
  series_.push_back(std::move(series));
  return series_.size() - 1;
}

void HtmlWriter::add(std::optional<double> time_s, const std::vector<report::Report>& reports) {
  if (reports.empty()) return;
  if (tree_nodes_.empty()) {
    for (const auto& node : reports.front().evaluation.nodes) {
      if (!node.node->is_info) tree_nodes_.push_back(node.node);
    }
  }
  if (!time_s) {
    whole_ = reports;
    return;
  }
  times_.push_back(*time_s);
  for (const report::Report& report : reports) {
    Series& series = series_[series_index(report.scope)];
    const std::vector<eval::NodeResult>& nodes = report.evaluation.nodes;
    series.bottleneck.push_back(-1);
    for (size_t n = 0; n < tree_nodes_.size(); ++n) {
      // Every record of a run evaluates the same nodes in the same order.
      const eval::NodeResult* result = n < nodes.size() && nodes[n].node == tree_nodes_[n]
                                           ? &nodes[n]
                                           : report.evaluation.find(tree_nodes_[n]->name);
      const bool known = result && result->value;
      series.values[n].push_back(known ? static_cast<float>(*result->value) : kNa);
      if (result && result->bottleneck) series.bottleneck.back() = static_cast<int>(n);
    }
  }
  // Units absent from this interval (a thread that ended) are n/a in it.
  for (Series& series : series_) {
    series.bottleneck.resize(times_.size(), -1);
    for (auto& values : series.values) values.resize(times_.size(), kNa);
  }
  last_interval_ = reports;
}

}  // namespace topdown::html
