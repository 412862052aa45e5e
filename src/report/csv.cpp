#include <fmt/format.h>

#include "common/strings.h"
#include "report/report.h"

namespace topdown::report {
namespace {

// Quotes a field when it holds a comma, quote or newline (RFC 4180).
std::string field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

std::string render_csv(const eval::Evaluation& evaluation, const counts::Sample& sample, const RunInfo& run) {
  std::string out =
      "kind,name,level,parent,vendor_name,value,unit,over_threshold,bottleneck,counted_share,status,missing_events\n";
  for (const auto& node : evaluation.nodes) {
    const model::Node& n = *node.node;
    out += fmt::format("{},{},{},{},{},{},{},{},{},{:.4f},{},{}\n", n.is_info ? "info" : "node", field(n.name),
                       n.level, field(n.parent), field(n.vendor_name),
                       node.value ? fmt::format("{:.9g}", *node.value) : "", field(n.is_info ? n.unit : "fraction"),
                       node.over_threshold ? 1 : 0, node.bottleneck ? 1 : 0, node.counted_share, status_of(node),
                       field(join(node.missing_events, " ")));
  }
  for (const auto& event : run.extra_events) {
    const counts::Count* count = sample.find(event);
    auto scaled = count ? count->scaled() : std::nullopt;
    std::string status = !scaled ? "n/a" : count->running_share() < 1 ? "multiplexed" : "ok";
    out += fmt::format("event,{},,,,{},count,0,0,{:.4f},{},\n", field(event), scaled ? fmt::format("{:.0f}", *scaled) : "",
                       count ? count->running_share() : 0.0, status);
  }
  return out;
}

}  // namespace topdown::report
