#include "model/retire_latency_file.h"

#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>

#include "common/error.h"
#include "common/input_file.h"
#include "model/model.h"

namespace topdown::model {
namespace {

// perfmon writes numbers; a hand-written file may quote them.
std::optional<double> cycles_of(const nlohmann::json& mean) {
  if (mean.is_number()) return mean.get<double>();
  if (!mean.is_string()) return std::nullopt;
  const std::string text = mean.get<std::string>();
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0') return std::nullopt;
  return value;
}

}  // namespace

RetireLatencies read_retire_latency_file(const std::filesystem::path& file) {
  if (file.empty()) return {};
  const std::string what = "retire latency file " + file.string();
  std::ifstream in = open_input(file, "retire latency file", "name a *_retire_latency.json file",
                                "check the path given to --retire-latencies");
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& error) {
    throw Error(what + " is not JSON (" + std::string(error.what()) + "); give perfmon's *_retire_latency.json");
  } catch (const nlohmann::json::out_of_range& error) {
    throw Error(what + " holds a number too large for a double (" + std::string(error.what()) +
                "); give perfmon's *_retire_latency.json");
  }
  const auto data = json.is_object() ? json.find("Data") : json.end();
  if (!json.is_object() || data == json.end() || !data->is_object()) {
    throw Error(what + " has no \"Data\" object; expected {\"Data\": {\"EVENT\": {\"MEAN\": cycles}}}");
  }
  RetireLatencies latencies;
  for (const auto& [event, stats] : data->items()) {
    const auto mean = stats.is_object() ? stats.find("MEAN") : stats.end();
    const std::optional<double> cycles = mean == stats.end() ? std::nullopt : cycles_of(*mean);
    if (!cycles || !std::isfinite(*cycles) || *cycles < 0) {
      throw Error(what + ": event " + event + " has no MEAN that is a number of cycles >= 0; fix or remove its entry");
    }
    latencies[retire_latency_name(event)] = *cycles;
  }
  return latencies;
}

}  // namespace topdown::model
