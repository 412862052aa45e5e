#include "cli/profile_locate.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "common/printable.h"
#include "common/strings.h"

namespace topdown::cli {
namespace {

std::string source_of(const recording::NamedSymbol& symbol) {
  return symbol.line > 0 ? fmt::format("{}:{}", symbol.file, symbol.line) : "";
}

}  // namespace

std::string locate_text(const std::optional<profile::Locate>& locate, const recording::Recording& recording) {
  if (!locate) return "\nNo bottleneck in the whole program: nothing to locate.\n";
  if (!locate->not_located.empty()) {
    return fmt::format("\n{} is not located: {}.\n", locate->node, locate->not_located);
  }
  std::string out =
      fmt::format("\nWhere {}'s events land ({}: {}):\n", locate->node,
                  locate->sample_events ? "its sample events" : "its own events, no sample event recorded",
                  join(locate->events, ", "));
  if (locate->rows.empty()) return out + "  none of these events was counted in any sample\n";
  size_t function_width = 8;
  size_t source_width = 6;
  for (const auto& row : locate->rows) {
    const auto& symbol = recording.symbols[row.symbol];
    function_width = std::max(function_width, printable(symbol.function).size());
    source_width = std::max(source_width, source_of(symbol).size());
  }
  out += fmt::format("  {:>6}  {:>8}  {:<{}}  {:<{}}  {}\n", "Share", "Samples", "Function", function_width, "Source",
                     source_width, "Module");
  for (const auto& row : locate->rows) {
    const auto& symbol = recording.symbols[row.symbol];
    std::string line =
        fmt::format("  {:>5.1f}%  {:>8}  {:<{}}  {:<{}}  {}", row.share * 100, row.samples, printable(symbol.function),
                    function_width, printable(source_of(symbol)), source_width, printable(symbol.module));
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string locate_csv(const std::optional<profile::Locate>& locate, const recording::Recording& recording,
                       const report::CsvRow& leading) {
  std::string out;
  if (!locate) return out;
  for (const auto& row : locate->rows) {
    const auto& symbol = recording.symbols[row.symbol];
    report::CsvRow fields = {symbol.function,
                             symbol.module,
                             fmt::format("{}", row.share),
                             std::to_string(row.samples),
                             "location",
                             source_of(symbol),
                             "",
                             locate->node,
                             "",
                             fmt::format("{}", row.weight),
                             join(locate->events, " "),
                             "",
                             "",
                             "",
                             locate->sample_events ? "sample_events" : "node_events",
                             "",
                             "",
                             "",
                             ""};
    report::append_csv_line(out, leading, fields);
  }
  return out;
}

std::string locate_json(const std::optional<profile::Locate>& locate, const recording::Recording& recording,
                        const std::string& core_type) {
  nlohmann::json object = {{"format", "topdown-1"}, {"locate", nullptr}};
  if (!core_type.empty()) object["core_type"] = core_type;
  if (locate) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : locate->rows) {
      const auto& symbol = recording.symbols[row.symbol];
      rows.push_back({{"function", symbol.function},
                      {"module", symbol.module},
                      {"file", symbol.line > 0 ? nlohmann::json(symbol.file) : nlohmann::json()},
                      {"line", symbol.line > 0 ? nlohmann::json(symbol.line) : nlohmann::json()},
                      {"share", row.share},
                      {"weight", row.weight},
                      {"samples", row.samples}});
    }
    object["locate"] = {
        {"node", locate->node},
        {"events", locate->events},
        {"sample_events", locate->sample_events},
        {"rows", rows},
        {"not_located", locate->not_located.empty() ? nlohmann::json() : nlohmann::json(locate->not_located)}};
  }
  return object.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace topdown::cli
