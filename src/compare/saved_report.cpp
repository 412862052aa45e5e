#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/strings.h"
#include "compare/compare.h"

namespace topdown::compare {
namespace {

using nlohmann::json;

constexpr std::string_view kFormat = "topdown-1";

// Measures of every interval of one scope, added up as they come (Welford's
// running mean and sum of squared deviations), so that a long stream of
// intervals needs no more memory than one.
struct IntervalSums {
  struct Sum {
    Measure measure;
    double mean = 0;
    double squares = 0;
    int n = 0;
  };
  std::vector<Sum> sums;

  void add(const std::vector<Measure>& measures) {
    for (size_t i = 0; i < measures.size(); ++i) {
      const Measure& measure = measures[i];
      // Intervals list their nodes in the same order: look by name only when it differs.
      Sum* sum = i < sums.size() && sums[i].measure.name == measure.name ? &sums[i] : find(measure.name);
      if (!sum) sum = &sums.emplace_back(Sum{measure, 0, 0, 0});
      if (!measure.value) continue;
      ++sum->n;
      const double delta = *measure.value - sum->mean;
      sum->mean += delta / sum->n;
      sum->squares += delta * (*measure.value - sum->mean);
    }
  }

  Sum* find(const std::string& name) {
    auto it = std::find_if(sums.begin(), sums.end(), [&](const Sum& s) { return s.measure.name == name; });
    return it == sums.end() ? nullptr : &*it;
  }

  std::vector<Measure> measures() const {
    std::vector<Measure> out;
    for (const Sum& sum : sums) {
      Measure measure = sum.measure;
      measure.runs = sum.n;
      measure.value = sum.n > 0 ? std::optional<double>(sum.mean) : std::nullopt;
      measure.stddev = sum.n > 1 ? std::sqrt(sum.squares / (sum.n - 1)) : 0;
      out.push_back(std::move(measure));
    }
    return out;
  }
};

struct ScopeRecords {
  std::string name;
  std::optional<std::vector<Measure>> whole;
  IntervalSums intervals;
};

class Reader {
 public:
  explicit Reader(const std::string& label) : label_(label) {}

  void object(std::string_view text, size_t line) {
    json record;
    try {
      // The events are the bulk of a record and are not compared: skipped unparsed into values.
      record = json::parse(text, [](int depth, json::parse_event_t event, json& parsed) {
        return !(depth == 1 && event == json::parse_event_t::key && parsed == "events");
      });
    } catch (const json::parse_error&) {
      throw Error(
          fmt::format("{}:{}: not complete JSON: the file is cut off, or not a topdown --json report", label_, line));
    }
    const auto format = record.is_object() ? record.find("format") : record.end();
    if (!record.is_object() || format == record.end() || *format != kFormat) {
      throw Error(fmt::format(
          "{}:{}: not a topdown report (no \"format\": \"{}\"); compare the --json output of topdown stat, import "
          "or report, or a perf stat file",
          label_, line, kFormat));
    }
    try {
      add(record);
    } catch (const json::exception&) {
      throw Error(
          fmt::format("{}:{}: a topdown report with a node that lacks its name, level or value; was it "
                      "edited? Make it again with --json",
                      label_, line));
    }
  }

  SavedReport finish() {
    if (scopes_.empty()) throw Error(label_ + " is empty: expected a topdown --json report");
    SavedReport report;
    report.label = label_;
    report.model = model_;
    for (ScopeRecords& records : scopes_) {
      Scope scope;
      scope.name = records.name;
      if (records.whole) {
        scope.measures = std::move(*records.whole);
      } else {
        scope.measures = records.intervals.measures();
        scope.from_intervals = true;
      }
      for (const Measure& measure : scope.measures)
        report.deepest_level = std::max(report.deepest_level, measure.level);
      report.scopes.push_back(std::move(scope));
    }
    return report;
  }

 private:
  static Measure measure_of(const json& node, bool info) {
    Measure measure;
    measure.name = node.at("name").get<std::string>();
    const json& parent = node.at("parent");
    if (parent.is_string()) measure.parent = parent.get<std::string>();
    measure.level = info ? 0 : node.at("level").get<int>();
    measure.unit = info ? node.value("unit", "") : "fraction";
    const json& value = node.at("value");
    if (value.is_number()) measure.value = value.get<double>();
    if (const auto runs = node.find("runs"); runs != node.end()) measure.runs = runs->get<int>();
    if (const auto stddev = node.find("stddev"); stddev != node.end()) measure.stddev = stddev->get<double>();
    return measure;
  }

  void add(const json& record) {
    const std::string model = record.at("model").at("name").get<std::string>();
    if (model_.empty()) model_ = model;
    std::vector<Measure> measures;
    for (const json& node : record.at("nodes")) measures.push_back(measure_of(node, false));
    if (const auto info = record.find("info"); info != record.end()) {
      for (const json& node : *info) measures.push_back(measure_of(node, true));
    }
    const auto scope_key = record.find("scope");
    const std::string scope = scope_key != record.end() && scope_key->is_string() ? scope_key->get<std::string>() : "";
    auto [known, inserted] = scope_index_.try_emplace(scope, scopes_.size());
    if (inserted) scopes_.push_back(ScopeRecords{scope, std::nullopt, {}});
    ScopeRecords& records = scopes_[known->second];
    const auto time = record.find("time");
    if (time == record.end() || time->is_null()) {
      records.whole = std::move(measures);
    } else {
      records.intervals.add(measures);
    }
  }

  std::string label_;
  std::string model_;
  std::vector<ScopeRecords> scopes_;
  std::map<std::string, size_t, std::less<>> scope_index_;
};

}  // namespace

SavedReport read_report(std::string_view text, const std::string& label) {
  Reader reader(label);
  const size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) throw Error(label + " is empty: expected a topdown --json report");
  // One indented object (a single report), or one object per line.
  const size_t first_end = text.find('\n', start);
  if (trim(text.substr(start, first_end == std::string_view::npos ? text.size() : first_end - start)) == "{") {
    reader.object(text.substr(start), 1);
    return reader.finish();
  }
  size_t line = 0;
  size_t begin = 0;
  while (begin < text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    ++line;
    const std::string_view content = trim(text.substr(begin, end - begin));
    if (!content.empty()) reader.object(content, line);
    begin = end + 1;
  }
  return reader.finish();
}

}  // namespace topdown::compare
