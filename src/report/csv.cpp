#include "report/csv.h"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string_view>

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

// `value` with `decimals` digits when value * 10^decimals is a whole number
// below 2^53 (shares of 1, 0.5, 0; whole counts): its digits are then the
// exact decimal, written from an integer in a fraction of to_chars' time.
// nullopt otherwise. The product, rounded to a whole number, is within half
// a unit in the last place of the exact product: far from a tie.
std::optional<std::string_view> exact_fixed(double value, int decimals, std::array<char, 400>& buffer) {
  static constexpr std::array<double, 5> kScale = {1, 10, 100, 1000, 10000};
  if (decimals < 0 || decimals >= static_cast<int>(kScale.size())) return std::nullopt;
  const double scaled = std::fabs(value) * kScale[static_cast<size_t>(decimals)];
  if (!(scaled < 9007199254740992.0) || scaled != std::floor(scaled)) return std::nullopt;
  auto whole = static_cast<uint64_t>(scaled);
  char* end = buffer.data() + buffer.size();
  char* at = end;
  for (int i = 0; i < decimals; ++i, whole /= 10) *--at = static_cast<char>('0' + whole % 10);
  if (decimals > 0) *--at = '.';
  do {
    *--at = static_cast<char>('0' + whole % 10);
    whole /= 10;
  } while (whole != 0);
  if (std::signbit(value)) *--at = '-';  // as to_chars: "-0.0000" for -0.0
  return std::string_view(at, static_cast<size_t>(end - at));
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

  // Fields written already (by a LineWriter), commas and all.
  LineWriter& written(std::string_view fields) {
    separate();
    out_ += fields;
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
    separate();
    if (const auto exact = exact_fixed(value, decimals, digits)) {
      out_.append(*exact);
      return *this;
    }
    const auto written =
        std::to_chars(digits.data(), digits.data() + digits.size(), value, std::chars_format::fixed, decimals);
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

// The fields of a node that are the same in every record.
void identity_fields(LineWriter& line, const model::Node& n) {
  line.text(n.is_info ? "info" : "node")
      .text(n.name)
      .number(FMT_COMPILE("{}"), n.level)
      .text(n.parent)
      .text(n.vendor_name);
}

void node_fields(LineWriter& line, const eval::NodeResult& node, CsvNodeFields* identities) {
  const model::Node& n = *node.node;
  if (identities)
    line.written(identities->of(n));
  else
    identity_fields(line, n);
  line.value(node.value).text(n.is_info ? n.unit : "fraction");
  line.text(node.over_threshold ? "1" : "0").text(node.bottleneck ? "1" : "0");
  line.fixed(node.counted_share, 4).text(status_of(node));
  std::string missing = node.missing_events.empty() ? std::string() : join(node.missing_events, " ");
  if (!node.not_countable.empty()) missing += " (" + node.not_countable + ")";
  line.text(missing);
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

const std::string& CsvNodeFields::of(const model::Node& node) {
  auto [at, added] = rendered_.try_emplace(&node);
  if (added) {
    LineWriter line(at->second);
    identity_fields(line, node);
  }
  return at->second;
}

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
    columns.emplace_back("tree");
    columns.emplace_back("call_path");
    return columns;
  }();
  return header;
}

CsvRow csv_header(const eval::Evaluation& evaluation) {
  CsvRow header = csv_header();
  if (evaluation.runs > 0) header.insert(header.end(), {"runs", "stddev", "ci95_low", "ci95_high", "unstable"});
  return header;
}

namespace {

// A sampled report's tree and call path (';' between the functions).
void sampled_tree_fields(LineWriter& line, const RunInfo& run) {
  if (!run.sampled) return;
  line.text(run.sampled->tree);
  std::string path;
  for (const std::string& function : run.sampled->call_path) path += (path.empty() ? "" : ";") + function;
  line.text(path);
}

}  // namespace

void append_csv_rows(std::string& out, const CsvRow& leading, const eval::Evaluation& evaluation,
                     const counts::Sample& sample, const RunInfo& run, const NodeSamples* node_samples,
                     CsvNodeFields* identities) {
  std::string leading_fields;
  LineWriter(leading_fields).texts(leading);
  const auto line_after_leading = [&] {
    LineWriter line(out);
    if (!leading.empty()) line.written(leading_fields);
    return line;
  };
  for (const auto& node : evaluation.nodes) {
    LineWriter line = line_after_leading();
    node_fields(line, node, identities);
    if (evaluation.runs > 0) spread_fields(line, node.spread);
    if (node_samples) {
      const auto samples = node_samples->find(node.node->name);
      samples == node_samples->end() ? line.text("") : line.number(FMT_COMPILE("{}"), samples->second);
      sampled_tree_fields(line, run);
    }
    line.end();
  }
  for (const auto& event : run.extra_events) {
    LineWriter line = line_after_leading();
    event_fields(line, event, sample);
    if (evaluation.runs > 0) spread_fields(line, std::nullopt);
    if (node_samples) {
      line.text("");
      sampled_tree_fields(line, run);
    }
    line.end();
  }
}

std::string render_csv(const eval::Evaluation& evaluation, const counts::Sample& sample, const RunInfo& run) {
  std::string out = csv_line(csv_header(evaluation));
  append_csv_rows(out, {}, evaluation, sample, run);
  return out;
}

}  // namespace topdown::report
