#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "common/error.h"
#include "common/printable.h"
#include "common/strings.h"
#include "compare/compare.h"
#include "compare/json_scan.h"

namespace topdown::compare {
namespace {

constexpr std::string_view kFormat = "topdown-1";

// A tree node's value is a share of the pipeline slots. Evaluation keeps a
// value a little outside 0 to 1 (multiplexing, rounding) and flags it;
// anything more than 100 points beyond is no measurement, and its change
// would be a nonsense number of points.
constexpr double kLowestShare = -1;
constexpr double kHighestShare = 2;
// Info metrics are ratios, rates and counts of 64-bit counters: none comes
// near this, and the changes and variances of values below it stay finite.
constexpr double kLargestInfoValue = 1e100;

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

  // `count` measures from position `first` on.
  void add(const std::vector<Measure>& measures, size_t count, size_t first) {
    for (size_t i = 0; i < count; ++i) {
      const Measure& measure = measures[i];
      const size_t at = first + i;
      // Intervals list their nodes in the same order: look by name only when it differs.
      Sum* sum = at < sums.size() && sums[at].measure.name == measure.name ? &sums[at] : find(measure.name);
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
  std::string function;  // of a profile's record
  std::string module;
  std::optional<double> share;
};

// What compare takes from one record.
struct Record {
  std::string format;
  std::string model;
  std::string tma_version;
  std::string scope;
  std::string core_type;  // a hybrid CPU's record: its core type's tree, a scope of its own
  bool interval = false;  // time is a number: an interval's record
  size_t nodes = 0;       // in Reader::nodes_
  size_t info = 0;        // in Reader::info_
  // A record without a model or nodes (report's `locate`) is not a scope.
  bool has_model = false;
  bool has_nodes = false;
  std::string function;  // a profile's function (topdown report)
  std::string module;
  std::optional<double> share;  // of the clockticks
};

class Reader {
 public:
  explicit Reader(const std::string& label) : label_(label) {}

  void object(std::string_view text, size_t line) {
    JsonScanner json(text);
    Record record;
    try {
      scan_record(json, record);
      json.end();
    } catch (const ScanError& error) {
      if (error.cut_off) {
        throw Error(
            fmt::format("{}:{}: not complete JSON: the file is cut off, or not a topdown --json report", label_, line));
      }
      throw Error(fmt::format("{}:{}: {}: {}; was the report edited? Make it again with --json", label_, line, field(),
                              error.what));
    }
    if (record.format != kFormat) {
      throw Error(
          fmt::format("{}:{}: not a topdown report (no \"format\": \"{}\"); compare the --json output of topdown stat, "
                      "import or report, or a perf stat file",
                      label_, line, kFormat));
    }
    if (!record.has_model && !record.has_nodes) return;
    const auto unnamed = [](const std::vector<Measure>& measures, size_t count) {
      return std::any_of(measures.begin(), measures.begin() + static_cast<long>(count),
                         [](const Measure& m) { return m.name.empty(); });
    };
    if (record.model.empty() || record.nodes == 0 || unnamed(nodes_, record.nodes) || unnamed(info_, record.info)) {
      throw Error(
          fmt::format("{}:{}: a topdown report without its model, nodes or their names; was it edited? "
                      "Make it again with --json",
                      label_, line));
    }
    add(record);
  }

  // Where the scan stopped: the key being read and, inside a node or Info
  // metric, which one.
  std::string field() const {
    if (key_.empty()) return "the record";
    std::string where = "\"" + printable(key_) + "\"";
    if (measure_) {
      where +=
          fmt::format(" of {} {}", measure_is_info_ ? "Info metric" : "node",
                      measure_->name.empty() ? fmt::format("number {}", measure_number_) : printable(measure_->name));
    }
    return where;
  }

  SavedReport finish() {
    if (scopes_.empty()) throw Error(label_ + " is empty: expected a topdown --json report");
    SavedReport report;
    report.label = label_;
    report.model = model_;
    report.tma_version = tma_version_;
    for (ScopeRecords& records : scopes_) {
      Scope scope;
      scope.name = records.name;
      if (records.whole) {
        scope.measures = std::move(*records.whole);
      } else {
        scope.measures = records.intervals.measures();
        scope.from_intervals = true;
      }
      scope.function = std::move(records.function);
      scope.module = std::move(records.module);
      if (records.share) {
        Measure& share = scope.share.emplace();
        share.name = "share";
        share.unit = "fraction";
        share.value = records.share;
        share.share = true;
      }
      for (const Measure& measure : scope.measures)
        report.deepest_level = std::max(report.deepest_level, measure.level);
      report.scopes.push_back(std::move(scope));
    }
    return report;
  }

 private:
  void scan_record(JsonScanner& json, Record& record) {
    key_.clear();
    measure_ = nullptr;
    json.begin_object();
    while (json.next_key(key_)) {
      if (key_ == "format" && json.next_is('"')) {
        json.string(record.format);
      } else if (key_ == "model" && json.next_is('{')) {
        record.has_model = true;
        json.begin_object();
        while (json.next_key(key_)) {
          if (key_ == "name" && json.next_is('"'))
            json.string(record.model);
          else if (key_ == "tma_version" && json.next_is('"'))
            json.string(record.tma_version);
          else
            json.skip_value();
        }
      } else if (key_ == "scope" && json.next_is('"')) {
        json.string(record.scope);
      } else if (key_ == "core_type" && json.next_is('"')) {
        json.string(record.core_type);
      } else if (key_ == "time") {
        record.interval = !json.null();
        if (record.interval) json.skip_value();
      } else if (key_ == "function" && json.next_is('"')) {
        json.string(record.function);
      } else if (key_ == "module" && json.next_is('"')) {
        json.string(record.module);
      } else if (key_ == "share" && !json.null()) {
        record.share = json.number();
      } else if (key_ == "nodes" || key_ == "info") {
        const bool info = key_ == "info";
        record.has_nodes = record.has_nodes || !info;
        json.begin_array();
        while (json.next_item()) scan_measure(json, info, info ? info_ : nodes_, info ? record.info : record.nodes);
        key_ = info ? "info" : "nodes";  // what a mistake after the list follows
      } else {
        json.skip_value();
      }
    }
  }

  static int whole_number(double value, int lowest, int highest) {
    if (!(value >= lowest && value <= highest) || value != std::floor(value)) {
      throw ScanError{fmt::format("{} is not a whole number from {} to {}", value, lowest, highest)};
    }
    return static_cast<int>(value);
  }

  // `value`, unless it is outside lowest to highest: then what it is not.
  static double within(double value, double lowest, double highest, std::string_view what_it_is_not) {
    if (value < lowest || value > highest) {
      throw ScanError{fmt::format("{} is not {} (compare takes {} to {})", value, what_it_is_not, lowest, highest)};
    }
    return value;
  }

  static double measured_value(double value, bool info) {
    if (info) return within(value, -kLargestInfoValue, kLargestInfoValue, "a value any Info metric reaches");
    return within(value, kLowestShare, kHighestShare, "a share of the pipeline slots");
  }

  static double measured_stddev(double stddev, bool info) {
    if (info) return within(stddev, 0, kLargestInfoValue, "a standard deviation of an Info metric");
    return within(stddev, 0, kHighestShare - kLowestShare, "a standard deviation of a share of the pipeline slots");
  }

  // Into the next of `scratch`, whose strings keep their buffers from record to record.
  void scan_measure(JsonScanner& json, bool info, std::vector<Measure>& scratch, size_t& count) {
    if (scratch.size() <= count) scratch.resize(count + 1);
    Measure& measure = scratch[count++];
    measure.name.clear();
    measure.parent.clear();
    measure.area.clear();
    measure.unit = info ? "" : "fraction";
    measure.level = 0;
    measure.value.reset();
    measure.runs = 1;
    measure.stddev = 0;
    measure_ = &measure;
    measure_is_info_ = info;
    measure_number_ = count;
    json.begin_object();
    while (json.next_key(key_)) {
      if (key_ == "name") {
        json.string(measure.name);
      } else if (key_ == "parent") {
        if (!json.null()) json.string(measure.parent);
      } else if (key_ == "level" && !info) {
        measure.level = whole_number(json.number(), 1, 6);
      } else if (key_ == "value") {
        if (!json.null()) measure.value = measured_value(json.number(), info);
      } else if (key_ == "area" && !info) {
        if (!json.null()) json.string(measure.area);
      } else if (key_ == "unit" && info) {
        json.string(measure.unit);
      } else if (key_ == "runs") {
        measure.runs = whole_number(json.number(), 1, 1'000'000'000);
      } else if (key_ == "stddev") {
        measure.stddev = measured_stddev(json.number(), info);
      } else {
        json.skip_value();
      }
    }
    measure_ = nullptr;
  }

  void add(const Record& record) {
    if (model_.empty()) {
      model_ = record.model;
      tma_version_ = record.tma_version;
    }
    // "P-core", "E-core CPU9": a hybrid CPU's two trees are never one scope.
    const std::string scope = record.core_type.empty() ? record.scope
                              : record.scope.empty()   ? record.core_type
                                                       : record.core_type + " " + record.scope;
    auto [known, inserted] = scope_index_.try_emplace(scope, scopes_.size());
    if (inserted) scopes_.push_back(ScopeRecords{scope, std::nullopt, {}, record.function, record.module, {}});
    ScopeRecords& records = scopes_[known->second];
    if (record.share) records.share = record.share;
    // Tree nodes first, whatever the order of the record's keys.
    if (record.interval) {
      records.intervals.add(nodes_, record.nodes, 0);
      records.intervals.add(info_, record.info, record.nodes);
    } else {
      std::vector<Measure>& whole =
          records.whole.emplace(nodes_.begin(), nodes_.begin() + static_cast<long>(record.nodes));
      whole.insert(whole.end(), info_.begin(), info_.begin() + static_cast<long>(record.info));
    }
  }

  std::string label_;
  std::string model_;
  std::string tma_version_;
  std::vector<ScopeRecords> scopes_;
  std::map<std::string, size_t, std::less<>> scope_index_;
  // The tree nodes and Info metrics of the record being read.
  std::vector<Measure> nodes_;
  std::vector<Measure> info_;
  std::string key_;
  // The node or Info metric being read, for messages; null between them.
  const Measure* measure_ = nullptr;
  bool measure_is_info_ = false;
  size_t measure_number_ = 0;  // from 1, in its list
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
