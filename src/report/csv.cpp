#include "report/csv.h"

#include <fmt/format.h>

#include "common/strings.h"

namespace topdown::report {
namespace {

void append_field(std::string& line, const std::string& field) {
  if (field.find_first_of(",\"\r\n") == std::string::npos) {
    line += field;
    return;
  }
  line += '"';
  for (char c : field) {
    if (c == '"') line += '"';
    line += c;
  }
  line += '"';
}

// stat -r: the spread's columns after the others (README.md).
void append_spread(CsvRow& row, const std::optional<eval::Spread>& spread) {
  if (!spread) {
    row.insert(row.end(), {"", "", "", "", ""});
    return;
  }
  row.insert(row.end(),
             {std::to_string(spread->runs), fmt::format("{}", spread->stddev), fmt::format("{}", spread->ci95_low),
              fmt::format("{}", spread->ci95_high), spread->unstable ? "1" : "0"});
}

CsvRow node_row(const eval::NodeResult& node) {
  const model::Node& n = *node.node;
  return {n.is_info ? "info" : "node",
          n.name,
          std::to_string(n.level),
          n.parent,
          n.vendor_name,
          node.value ? fmt::format("{}", *node.value) : "",  // shortest text that reads back as the same double
          n.is_info ? n.unit : "fraction",
          node.over_threshold ? "1" : "0",
          node.bottleneck ? "1" : "0",
          fmt::format("{:.4f}", node.counted_share),
          status_of(node),
          join(node.missing_events, " ")};
}

CsvRow event_row(const std::string& event, const counts::Sample& sample) {
  const counts::Count* count = sample.find(event);
  const auto scaled = count ? count->scaled() : std::nullopt;
  const std::string status = !scaled ? "n/a" : count->running_share() < 1 ? "multiplexed" : "ok";
  return {"event", event,
          "",      "",
          "",      scaled ? fmt::format("{:.0f}", *scaled) : "",
          "count", "0",
          "0",     fmt::format("{:.4f}", count ? count->running_share() : 0.0),
          status,  ""};
}

}  // namespace

void append_csv_line(std::string& out, const CsvRow& leading, const CsvRow& fields) {
  bool first = true;
  for (const CsvRow* part : {&leading, &fields}) {
    for (const std::string& field : *part) {
      if (!first) out += ',';
      first = false;
      append_field(out, field);
    }
  }
  out += '\n';
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

std::vector<CsvRow> csv_rows(const eval::Evaluation& evaluation, const counts::Sample& sample, const RunInfo& run) {
  std::vector<CsvRow> rows;
  for (const auto& node : evaluation.nodes) {
    rows.push_back(node_row(node));
    if (evaluation.runs > 0) append_spread(rows.back(), node.spread);
  }
  for (const auto& event : run.extra_events) {
    rows.push_back(event_row(event, sample));
    if (evaluation.runs > 0) append_spread(rows.back(), std::nullopt);
  }
  return rows;
}

std::string render_csv(const eval::Evaluation& evaluation, const counts::Sample& sample, const RunInfo& run) {
  std::string out = csv_line(csv_header(evaluation));
  for (const CsvRow& row : csv_rows(evaluation, sample, run)) out += csv_line(row);
  return out;
}

}  // namespace topdown::report
