#include "report/units.h"

#include "report/json_object.h"

namespace topdown::report {
namespace {

// A scope comes from perf's labels; only a thread's command can hold
// characters CSV would have to quote, and those become '_'.
std::string csv_scope(std::string scope) {
  for (char& c : scope) {
    if (c == ',' || c == '"' || c == '\n' || c == '\r') c = '_';
  }
  return scope;
}

}  // namespace

std::string render_unit_text(const eval::Evaluation& evaluation, const counts::Sample& sample, const RunInfo& run,
                             const TextOptions& options, const std::string& scope) {
  return "=== " + scope + " ===\n" + render_text(evaluation, sample, run, options);
}

std::string render_unit_csv(const eval::Evaluation& evaluation, const counts::Sample& sample, const RunInfo& run,
                            const std::string& scope, bool with_header) {
  const std::string csv = render_csv(evaluation, sample, run);
  const std::string prefix = csv_scope(scope) + ",";
  std::string out;
  size_t start = 0;
  for (bool header = true; start < csv.size(); header = false) {
    const size_t end = std::min(csv.find('\n', start), csv.size());
    if (!header) out += prefix + csv.substr(start, end - start) + "\n";
    else if (with_header) out += "scope," + csv.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return out;
}

std::string render_unit_json(const eval::Evaluation& evaluation, const counts::Sample& sample, const RunInfo& run,
                             const std::string& scope, bool in_stream) {
  nlohmann::json out = json_object(evaluation, sample, run);
  out["scope"] = scope;
  if (in_stream && !run.interval_time_s) out["time"] = nullptr;
  constexpr auto kReplace = nlohmann::json::error_handler_t::replace;
  return out.dump(-1, ' ', false, kReplace) + "\n";
}

}  // namespace topdown::report
