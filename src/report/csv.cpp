#include "report/csv.h"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <iterator>

#include "common/strings.h"

namespace topdown::report {
namespace {

bool needs_quotes(std::string_view field) {
  static constexpr auto kSpecial = [] {
    std::array<bool, 256> special{};
    special[','] = special['"'] = special['\r'] = special['\n'] = true;
    return special;
  }();
  return std::any_of(field.begin(), field.end(), [](char c) { return kSpecial[static_cast<unsigned char>(c)]; });
}

// One CSV line written field by field straight into `out`: a stream of
// intervals writes thousands of rows, none built apart.
class LineWriter {
 public:
  explicit LineWriter(std::string& out) : out_(out) {}

  void end() { out_ += '\n'; }

  // Quoted (its quotes doubled) when it holds a comma, a quote, CR or LF.
  LineWriter& text(std::string_view field) {
    separate();
    if (!needs_quotes(field)) {
      out_ += field;
      return *this;
    }
    out_ += '"';
    for (char c : field) {
      if (c == '"') out_ += '"';
      out_ += c;
    }
    out_ += '"';
    return *this;
  }

  LineWriter& texts(const CsvRow& fields) {
    for (const std::string& field : fields) text(field);
    return *this;
  }

  // A number (never quoted), formatted by FMT_COMPILE("...").
  template <typename Format, typename... Args>
  LineWriter& number(const Format& format, const Args&... args) {
    separate();
    fmt::format_to(std::back_inserter(out_), format, args...);
    return *this;
  }

  // `value` with `decimals` digits after the point: std::to_chars rounds
  // exactly as fmt's {:.Nf} does, in a fraction of its time.
  LineWriter& fixed(double value, int decimals) {
    std::array<char, 400> digits;  // room for any double
    const auto written =
        std::to_chars(digits.data(), digits.data() + digits.size(), value, std::chars_format::fixed, decimals);
    separate();
    out_.append(digits.data(), written.ptr);
    return *this;
  }

  // The shortest text that reads back as the same double; empty without one.
  LineWriter& value(const std::optional<double>& value) { return value ? number(FMT_COMPILE("{}"), *value) : text(""); }

 private:
  void separate() {
    if (!first_) out_ += ',';
    first_ = false;
  }

  std::string& out_;
  bool first_ = true;
};

// stat -r: the spread's columns after the others (README.md).
void spread_fields(LineWriter& line, const std::optional<eval::Spread>& spread) {
  if (!spread) {
    line.text("").text("").text("").text("").text("");
    return;
  }
  line.number(FMT_COMPILE("{}"), spread->runs).value(spread->stddev).value(spread->ci95_low).value(spread->ci95_high);
  line.text(spread->unstable ? "1" : "0");
}

void node_fields(LineWriter& line, const eval::NodeResult& node) {
  const model::Node& n = *node.node;
  line.text(n.is_info ? "info" : "node")
      .text(n.name)
      .number(FMT_COMPILE("{}"), n.level)
      .text(n.parent)
      .text(n.vendor_name);
  line.value(node.value).text(n.is_info ? n.unit : "fraction");
  line.text(node.over_threshold ? "1" : "0").text(node.bottleneck ? "1" : "0");
  line.fixed(node.counted_share, 4).text(status_of(node));
  line.text(node.missing_events.empty() ? std::string() : join(node.missing_events, " "));
}

void event_fields(LineWriter& line, const std::string& event, const counts::Sample& sample) {
  const counts::Count* count = sample.find(event);
  const auto scaled = count ? count->scaled() : std::nullopt;
  line.text("event").text(event).text("").text("").text("");
  scaled ? line.fixed(*scaled, 0) : line.text("");
  line.text("count").text("0").text("0").fixed(count ? count->running_share() : 0.0, 4);
  line.text(!scaled ? "n/a" : count->running_share() < 1 ? "multiplexed" : "ok").text("");
}

}  // namespace

void append_csv_line(std::string& out, const CsvRow& leading, const CsvRow& fields) {
  LineWriter(out).texts(leading).texts(fields).end();
}

std::string csv_line(const CsvRow& fields) {
  std::string line;
  append_csv_line(line, {}, fields);
  return line;
}

const CsvRow& csv_header() {
  static const CsvRow header = {"kind",        "name",          "level",  "parent",
                                "vendor_name", "value",         "unit",   "over_threshold",
                                "bottleneck",  "counted_share", "status", "missing_events"};
  return header;
}

const CsvRow& csv_sampled_header() {
  static const CsvRow header = [] {
    CsvRow columns = {"function", "module", "share", "samples"};
    columns.insert(columns.end(), csv_header().begin(), csv_header().end());
    columns.emplace_back("node_samples");
    return columns;
  }();
  return header;
}

CsvRow csv_header(const eval::Evaluation& evaluation) {
  CsvRow header = csv_header();
  if (evaluation.runs > 0) header.insert(header.end(), {"runs", "stddev", "ci95_low", "ci95_high", "unstable"});
  return header;
}

void append_csv_rows(std::string& out, const CsvRow& leading, const eval::Evaluation& evaluation,
                     const counts::Sample& sample, const RunInfo& run, const NodeSamples* node_samples) {
  for (const auto& node : evaluation.nodes) {
    LineWriter line(out);
    node_fields(line.texts(leading), node);
    if (evaluation.runs > 0) spread_fields(line, node.spread);
    if (node_samples) {
      const auto samples = node_samples->find(node.node->name);
      samples == node_samples->end() ? line.text("") : line.number(FMT_COMPILE("{}"), samples->second);
    }
    line.end();
  }
  for (const auto& event : run.extra_events) {
    LineWriter line(out);
    event_fields(line.texts(leading), event, sample);
    if (evaluation.runs > 0) spread_fields(line, std::nullopt);
    if (node_samples) line.text("");
    line.end();
  }
}

std::string render_csv(const eval::Evaluation& evaluation, const counts::Sample& sample, const RunInfo& run) {
  std::string out = csv_line(csv_header(evaluation));
  append_csv_rows(out, {}, evaluation, sample, run);
  return out;
}

}  // namespace topdown::report
