#include "model/perf_metrics_json.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>

#include "common/graph.h"
#include "common/input_file.h"
#include "common/strings.h"
#include "model/perf_metric_formulas.h"

namespace topdown::model {
namespace {

constexpr int kMaxLevel = 6;

// One metric of the file, as perf wrote it.
struct PerfMetric {
  std::string name;
  std::string formula;    // MetricExpr
  std::string threshold;  // MetricThreshold; empty when absent
  std::vector<std::string> groups;
  std::string scale_unit;
  std::string brief_description;
  std::string public_description;
};

// perf's naming: tma_<node> for tree nodes, tma_info_* and tma_bottleneck_*
// for summaries, anything else (C6_Core_Residency, UNCORE_FREQ) outside TMA.
bool is_info_name(std::string_view name) {
  return !name.starts_with("tma_") || name.starts_with("tma_info_") || name.starts_with("tma_bottleneck_");
}

bool is_plain_name(std::string_view name) {
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  return !name.empty() && letter(name[0]) &&
         std::all_of(name.begin(), name.end(), [&](char c) { return letter(c) || (c >= '0' && c <= '9'); });
}

// "TopdownL3" and "tma_L3_group" give a level; 0 for other groups.
int level_group(std::string_view group) {
  const bool topdown = group.size() == 9 && group.starts_with("TopdownL");
  const bool tma = group.size() == 12 && group.starts_with("tma_L") && group.ends_with("_group");
  const char digit = topdown ? group[8] : tma ? group[5] : '0';
  return digit >= '1' && digit <= '9' ? digit - '0' : 0;
}

// "tma_frontend_bound_group" holds the children of tma_frontend_bound.
std::string parent_of_group(std::string_view group) {
  if (!group.starts_with("tma_") || !group.ends_with("_group") || level_group(group) > 0) return "";
  return std::string(group.substr(0, group.size() - 6));
}

// The items of one of perf's ';'-separated lists.
std::vector<std::string> list_items(std::string_view list) {
  const std::vector<std::string_view> items = split_words(list, ";");
  return {items.begin(), items.end()};
}

// perf's descriptions end "Sample with: EVENT;EVENT. Related metrics: ...".
std::vector<std::string> sample_events(std::string_view description) {
  constexpr std::string_view kSample = "Sample with: ";
  const auto start = description.find(kSample);
  if (start == std::string_view::npos) return {};
  std::string_view events = description.substr(start + kSample.size());
  events = events.substr(0, events.find(". "));
  if (events.ends_with('.')) events.remove_suffix(1);
  return list_items(events);
}

std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

nlohmann::json read_json(const std::filesystem::path& file) {
  std::ifstream in =
      open_input(file, "perf metric file", "name perf's <cpu>-metrics.json", "check the path given to --metrics-file");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& error) {
    throw Error("perf metric file " + file.string() + " is not JSON (" + one_line(error.what()) +
                "); give perf's <cpu>-metrics.json");
  } catch (const nlohmann::json::out_of_range& error) {
    throw Error("perf metric file " + file.string() + " holds a number too large for a double (" +
                one_line(error.what()) + "); give perf's <cpu>-metrics.json");
  }
}

class PerfMetricFile {
 public:
  PerfMetricFile(const std::filesystem::path& file, const nlohmann::json& json) : file_(file.string()) {
    if (!json.is_array()) fail("expected a JSON array of metrics (perf's <cpu>-metrics.json)");
    for (std::size_t i = 0; i < json.size(); ++i) add(json[i], i + 1);
  }

  Model build(const Model& cpu_model) {
    for (const PerfMetric& metric : metrics_) parse(metric);
    for (const PerfMetric& metric : metrics_) find_parent(metric);
    for (const PerfMetric& metric : metrics_) find_level(metric);
    check_formula_cycles();
    Model model;
    model.name = cpu_model.name;
    model.title = cpu_model.title + ", perf metrics of " + std::filesystem::path(file_).filename().string();
    model.cpus = cpu_model.cpus;
    model.event_tables = cpu_model.event_tables;
    model.pfm_pmu = cpu_model.pfm_pmu;
    model.counters = cpu_model.counters;
    if (const auto width = cpu_model.constants.find("Pipeline_Width"); width != cpu_model.constants.end()) {
      if (names_.count(width->first)) fail("a metric is named " + width->first + ", the constant behind #slots");
      model.constants.insert(*width);
    }
    // The events stage finds the event tables next to the model's source.
    model.source = cpu_model.source;
    for (const std::size_t index : tree_order()) model.nodes.push_back(node(metrics_[index]));
    for (const PerfMetric& metric : metrics_) {
      if (is_info_name(metric.name)) model.nodes.push_back(node(metric));
    }
    return model;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw Error("perf metric file " + file_ + ": " + what); }
  [[noreturn]] void fail(const PerfMetric& metric, const std::string& what) const {
    fail("metric " + metric.name + ": " + what);
  }

  std::string text(const nlohmann::json& entry, const char* key, const std::string& metric) const {
    const auto field = entry.find(key);
    if (field == entry.end()) return "";
    if (!field->is_string()) fail("metric " + metric + ": " + key + " is not a string");
    return field->get<std::string>();
  }

  void add(const nlohmann::json& entry, std::size_t number) {
    const std::string position = "entry " + std::to_string(number);
    if (!entry.is_object()) fail(position + " is not an object with MetricName and MetricExpr");
    PerfMetric metric;
    metric.name = text(entry, "MetricName", position);
    if (metric.name.empty()) fail(position + " has no MetricName");
    if (!is_plain_name(metric.name)) fail(metric, "the name is not letters, digits and '_'; formulas cannot use it");
    if (is_run_variable(metric.name)) fail(metric, "the name is a run variable of topdown's formulas");
    metric.formula = text(entry, "MetricExpr", metric.name);
    if (metric.formula.empty()) fail(metric, "no MetricExpr; every metric needs a formula");
    metric.threshold = text(entry, "MetricThreshold", metric.name);
    metric.groups = list_items(text(entry, "MetricGroup", metric.name));
    metric.scale_unit = text(entry, "ScaleUnit", metric.name);
    metric.brief_description = text(entry, "BriefDescription", metric.name);
    metric.public_description = text(entry, "PublicDescription", metric.name);
    if (!names_.insert(metric.name).second) fail(metric, "defined twice; each MetricName must be unique");
    metrics_.push_back(std::move(metric));
  }

  expr::Expression parse_text(const PerfMetric& metric, const std::string& text, const char* key) const {
    try {
      return expr::Expression::parse(text);
    } catch (const ParseError& error) {
      const std::string message = error.what();
      const std::string at = error.where().to_string() + ": ";
      fail(metric, std::string(key) + " column " + std::to_string(error.where().column) + ": " +
                       (message.starts_with(at) ? message.substr(at.size()) : message));
    }
  }

  void parse(const PerfMetric& metric) {
    formulas_.emplace(metric.name, parse_text(metric, metric.formula, "MetricExpr"));
    if (metric.threshold.empty()) return;
    const auto& threshold = thresholds_.emplace(metric.name, parse_text(metric, metric.threshold, "MetricThreshold"));
    const expr::Expression& test = threshold.first->second;
    if (test.identifiers().count(metric.name)) own_tests_[test.to_string()] = metric.name;
  }

  // A tree node's parent is the metric its tma_<parent>_group group names.
  void find_parent(const PerfMetric& metric) {
    if (is_info_name(metric.name)) return;
    std::string parent;
    for (const std::string& group : metric.groups) {
      const std::string owner = parent_of_group(group);
      if (owner.empty()) continue;
      if (!names_.count(owner)) fail(metric, "group " + group + " names no metric " + owner);
      if (is_info_name(owner)) fail(metric, "group " + group + " makes Info metric " + owner + " a parent");
      if (!parent.empty()) fail(metric, "in two parent groups, " + parent + "_group and " + group);
      parent = owner;
    }
    const bool level_one = std::any_of(metric.groups.begin(), metric.groups.end(),
                                       [](const std::string& group) { return level_group(group) == 1; });
    if (parent.empty() && !level_one) {
      fail(metric, "in no tma_<parent>_group group and not in TopdownL1; a tma_ node needs one of them");
    }
    parents_[metric.name] = parent;
  }

  // The level its parents give, which must be the one its TopdownL<n> says.
  void find_level(const PerfMetric& metric) {
    if (is_info_name(metric.name)) return;
    std::vector<std::string> chain = {metric.name};
    for (std::string up = parents_.at(metric.name); !up.empty(); up = parents_.at(up)) {
      if (std::find(chain.begin(), chain.end(), up) != chain.end()) fail(metric, "its parent groups form a loop");
      chain.push_back(up);
      if (static_cast<int>(chain.size()) > kMaxLevel) fail(metric, "deeper than level 6");
    }
    const int level = static_cast<int>(chain.size());
    for (const std::string& group : metric.groups) {
      const int declared = level_group(group);
      if (declared > 0 && declared != level) {
        fail(metric, "group " + group + " says level " + std::to_string(declared) +
                         " but its parent groups make it level " + std::to_string(level));
      }
    }
    levels_[metric.name] = level;
  }

  void check_formula_cycles() const {
    std::vector<std::string> names;
    for (const PerfMetric& metric : metrics_) names.push_back(metric.name);
    const std::vector<std::string> cycle = find_cycle(names, [&](const std::string& name) {
      std::vector<std::string> metrics_used;
      for (const std::string& used : formulas_.at(name).identifiers()) {
        if (names_.count(used)) metrics_used.push_back(used);
      }
      return metrics_used;
    });
    if (!cycle.empty()) fail("metrics use each other in a circle: " + join(cycle, " -> "));
  }

  // Tree nodes depth-first, children in file order.
  std::vector<std::size_t> tree_order() const {
    std::vector<std::size_t> order;
    std::function<void(const std::string&)> add_children = [&](const std::string& parent) {
      for (std::size_t i = 0; i < metrics_.size(); ++i) {
        const auto placed = parents_.find(metrics_[i].name);
        if (placed == parents_.end() || placed->second != parent) continue;
        order.push_back(i);
        add_children(metrics_[i].name);
      }
    };
    add_children("");
    return order;
  }

  // perf shows value * FACTOR in UNIT ("100%", "1MB/s"); our value is
  // perf's unscaled one, a fraction where perf shows percent.
  std::string unit_of(const PerfMetric& metric) const {
    const std::string& scale = metric.scale_unit;
    if (scale.empty()) return "";
    double factor = 1;
    const auto [end, error] = std::from_chars(scale.data(), scale.data() + scale.size(), factor);
    if (error != std::errc() || end == scale.data() + scale.size()) {
      fail(metric, "ScaleUnit '" + scale + "' is not a number followed by a unit, such as 100% or 1MB/s");
    }
    std::string unit(end, scale.data() + scale.size());
    if (factor == 100 && unit == "%") return "fraction";
    if (factor == 1) return unit;
    return std::string(scale.data(), end) + " " + unit;
  }

  Node node(const PerfMetric& metric) const {
    const std::string where = "perf metric file " + file_ + ": metric " + metric.name;
    const bool info = is_info_name(metric.name);
    Node node;
    node.name = metric.name;
    node.is_info = info;
    node.parent = info ? "" : parents_.at(metric.name);
    node.level = info ? 0 : levels_.at(metric.name);
    node.formula = perf_json::translate_formula(formulas_.at(metric.name), names_, where + ": MetricExpr");
    if (const auto threshold = thresholds_.find(metric.name); threshold != thresholds_.end()) {
      node.threshold = perf_json::translate_threshold(threshold->second, metric.name, node.parent, own_tests_, names_,
                                                      where + ": MetricThreshold");
    }
    const std::string unit = unit_of(metric);  // a tree node's value is a fraction whatever perf shows
    if (info) node.unit = unit;
    node.groups = metric.groups;
    node.sample_events = sample_events(metric.public_description);
    node.description = metric.public_description.empty() ? metric.brief_description : metric.public_description;
    node.where = {file_, 0, 0};
    return node;
  }

  std::string file_;
  std::vector<PerfMetric> metrics_;
  perf_json::MetricNames names_;
  std::map<std::string, expr::Expression, std::less<>> formulas_;
  std::map<std::string, expr::Expression, std::less<>> thresholds_;
  perf_json::OwnTests own_tests_;
  std::map<std::string, std::string, std::less<>> parents_;
  std::map<std::string, int, std::less<>> levels_;
};

}  // namespace

Model load_perf_metrics_json(const std::filesystem::path& file, const Model& cpu_model) {
  return PerfMetricFile(file, read_json(file)).build(cpu_model);
}

}  // namespace topdown::model
