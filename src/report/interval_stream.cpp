#include <fmt/format.h>

#include <string_view>

#include "report/json_object.h"
#include "report/report.h"

namespace topdown::report {

std::string csv_with_time(const std::string& csv, std::optional<double> time_s, bool with_header) {
  const std::string time = time_s ? fmt::format("{}", *time_s) : "";
  std::string out;
  size_t start = 0;
  for (bool header = true; start < csv.size(); header = false) {
    const size_t end = std::min(csv.find('\n', start), csv.size());
    const std::string_view line(csv.data() + start, end - start);
    if (!header) out += fmt::format("{},{}\n", time, line);
    else if (with_header) out += fmt::format("time,{}\n", line);
    start = end + 1;
  }
  return out;
}

std::string IntervalStream::interval(const eval::Evaluation& evaluation, const counts::Sample& sample,
                                     const RunInfo& run, double time_s) {
  return record(evaluation, sample, run, time_s);
}

std::string IntervalStream::summary(const eval::Evaluation& evaluation, const counts::Sample& sample,
                                    const RunInfo& run) {
  return record(evaluation, sample, run, std::nullopt);
}

std::string IntervalStream::record(const eval::Evaluation& evaluation, const counts::Sample& sample,
                                   const RunInfo& run, std::optional<double> time_s) {
  const bool first = first_;
  first_ = false;
  switch (format_) {
    case Format::Csv:
      return csv_with_time(render_csv(evaluation, sample, run), time_s, first);
    case Format::Json: {
      RunInfo record_run = run;
      record_run.interval_time_s = time_s;
      nlohmann::json object = json_object(evaluation, sample, record_run);
      if (!time_s) object["time"] = nullptr;
      return object.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";  // names need not be UTF-8
    }
    case Format::Columns:
      return (first ? render_columns_header(evaluation) : "") + render_columns_row(evaluation, time_s);
    case Format::Text:
      break;
  }
  const std::string heading = time_s ? fmt::format("=== time {} s ===", *time_s) : "=== whole run ===";
  return fmt::format("{}{}\n{}", first ? "" : "\n", heading, render_text(evaluation, sample, run, text_));
}

}  // namespace topdown::report
