#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "report/csv.h"
#include "report/json_object.h"
#include "report/report.h"

namespace topdown::report {
namespace {

// A scope comes from perf's labels or collect's; only a thread's command can
// hold characters CSV would have to quote, and README.md promises '_' for
// them instead, so that a scope never needs quoting.
std::string csv_scope(std::string scope) {
  for (char& c : scope) {
    if (c == ',' || c == '"' || c == '\n' || c == '\r') c = '_';
  }
  return scope;
}

}  // namespace

CsvRow core_type_fields(const Report& report) {
  return {report.core_type, report.core_share ? fmt::format("{}", *report.core_share) : ""};
}

namespace {

std::string time_heading(std::optional<double> time_s) {
  return time_s ? fmt::format("=== time {} s ===\n", *time_s) : "=== whole run ===\n";
}

}  // namespace

ReportWriter::ReportWriter(Layout layout) : layout_(layout), node_fields_(std::make_unique<CsvNodeFields>()) {
  if (layout_.format == Format::Columns && layout_.scoped) {
    throw std::invalid_argument("the columns view has one line per record, not one per unit");
  }
}

ReportWriter::ReportWriter(ReportWriter&&) noexcept = default;
ReportWriter& ReportWriter::operator=(ReportWriter&&) noexcept = default;
ReportWriter::~ReportWriter() = default;

std::string ReportWriter::write(std::optional<double> time_s, const std::vector<Report>& reports) {
  if (!layout_.scoped && !layout_.core_typed && reports.size() != 1) {
    throw std::invalid_argument("a record without units has exactly one report");
  }
  const bool first = first_;
  first_ = false;
  switch (layout_.format) {
    case Format::Csv:
      return csv(time_s, reports, first);
    case Format::Json:
      return json(time_s, reports);
    case Format::Columns:
      return columns(time_s, reports, first);
    case Format::Text:
      break;
  }
  return text(time_s, reports, first);
}

// "main [app]: 42.0% of cpu-clock, 1,234 samples" under the scope's heading.
std::string sampled_heading(const Report& report) {
  const Sampled& sampled = *report.run.sampled;
  std::string heading = report.scope + ": ";
  if (!sampled.clock_event.empty() && sampled.function != kWholeProgram) {
    heading += fmt::format("{:.1f}% of {}, ", sampled.share * 100, sampled.clock_event);
  }
  heading += fmt::format("{} samples", sampled.samples);
  if (sampled.lost_samples > 0) heading += fmt::format(", {} lost", sampled.lost_samples);
  if (sampled.truncated) heading += ", file truncated";
  return heading;
}

std::string core_type_share_heading(const Report& report) {
  if (!report.core_share) return report.core_type;
  return fmt::format("{}: {:.1f}% of the cycles", report.core_type, *report.core_share * 100);
}

// As core_type_share_heading, or "E-core CPU9" for a unit's report.
std::string core_type_heading(const Report& report) {
  if (!report.scope.empty()) return report.core_type + " " + report.scope;
  return core_type_share_heading(report);
}

std::string ReportWriter::text(std::optional<double> time_s, const std::vector<Report>& reports, bool first) {
  std::string out;
  if (layout_.timed) out += (first ? "" : "\n") + time_heading(time_s);
  for (size_t i = 0; i < reports.size(); ++i) {
    const Report& report = reports[i];
    // A profile's functions under their core type's heading, once per type.
    if (layout_.sampled && layout_.core_typed && report.core_type != core_type_) {
      out += (core_type_.empty() ? "=== " : "\n=== ") + core_type_share_heading(report) + " ===\n";
      core_type_ = report.core_type;
    }
    if (layout_.scoped || layout_.core_typed) {
      const std::string heading = report.run.sampled   ? sampled_heading(report)
                                  : layout_.core_typed ? core_type_heading(report)
                                                       : report.scope;
      out += (i > 0 ? "\n=== " : "=== ") + heading + " ===\n";
    }
    out += render_text(report.evaluation, report.sample, report.run, layout_.text);
  }
  return out;
}

std::string ReportWriter::csv(std::optional<double> time_s, const std::vector<Report>& reports, bool first) const {
  if (layout_.sampled) return sampled_csv(reports, first);
  CsvRow leading;
  if (layout_.timed) leading.push_back(time_s ? fmt::format("{}", *time_s) : "");
  const size_t core_type_column = leading.size();
  if (layout_.core_typed) leading.resize(leading.size() + 2);
  const size_t scope_column = leading.size();
  if (layout_.scoped) leading.emplace_back();
  std::string out;
  if (first) {
    CsvRow header = layout_.timed ? CsvRow{"time"} : CsvRow{};
    if (layout_.core_typed) header.insert(header.end(), {"core_type", "core_share"});
    if (layout_.scoped) header.push_back("scope");
    const CsvRow columns = csv_header(reports.front().evaluation);
    header.insert(header.end(), columns.begin(), columns.end());
    out += csv_line(header);
  }
  for (const Report& report : reports) {
    if (layout_.core_typed) {
      const CsvRow fields = core_type_fields(report);
      std::copy(fields.begin(), fields.end(), leading.begin() + static_cast<std::ptrdiff_t>(core_type_column));
    }
    if (layout_.scoped) leading[scope_column] = csv_scope(report.scope);
    append_csv_rows(out, leading, report.evaluation, report.sample, report.run, nullptr, node_fields_.get());
  }
  return out;
}

std::string ReportWriter::sampled_csv(const std::vector<Report>& reports, bool first) const {
  std::string out;
  if (first) {
    CsvRow header = layout_.core_typed ? CsvRow{"core_type", "core_share"} : CsvRow{};
    header.insert(header.end(), csv_sampled_header().begin(), csv_sampled_header().end());
    out += csv_line(header);
  }
  for (const Report& report : reports) {
    if (!report.run.sampled) throw std::invalid_argument("a sampled layout's reports are of sampled functions");
    const Sampled& sampled = *report.run.sampled;
    CsvRow leading = layout_.core_typed ? core_type_fields(report) : CsvRow{};
    leading.insert(leading.end(), {sampled.function, sampled.module, fmt::format("{}", sampled.share),
                                   std::to_string(sampled.samples)});
    append_csv_rows(out, leading, report.evaluation, report.sample, report.run, &sampled.node_samples,
                    node_fields_.get());
  }
  return out;
}

std::string ReportWriter::json(std::optional<double> time_s, const std::vector<Report>& reports) const {
  const bool one_line = layout_.timed || layout_.scoped || layout_.core_typed;
  std::string out;
  for (const Report& report : reports) {
    nlohmann::json object = json_object(report.evaluation, report.sample, report.run);
    if (layout_.timed) object["time"] = time_s ? nlohmann::json(*time_s) : nlohmann::json();
    if (layout_.scoped) object["scope"] = report.scope;
    if (layout_.core_typed) {
      object["core_type"] = report.core_type;
      object["core_share"] = report.core_share ? nlohmann::json(*report.core_share) : nlohmann::json();
    }
    out += json_text(object, one_line);
  }
  return out;
}

std::string ReportWriter::columns(std::optional<double> time_s, const std::vector<Report>& reports, bool first) {
  if (layout_.core_typed) {
    std::vector<std::string> core_types;
    for (const Report& report : reports) core_types.push_back(report.core_type);
    if (first) column_core_types_ = core_types;
    if (core_types != column_core_types_) {
      throw std::invalid_argument("every record of the columns view has the same core types as its header");
    }
    return (first ? render_core_type_columns_header(reports) : "") + render_core_type_columns_row(reports, time_s);
  }
  const eval::Evaluation& evaluation = reports.front().evaluation;
  return (first ? render_columns_header(evaluation) : "") + render_columns_row(evaluation, time_s);
}

}  // namespace topdown::report
