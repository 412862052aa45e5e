#pragma once
// perf stat's retire-latency rows: with an `EVENT:R` event (TPEBS, perf 6.12
// and later) perf samples EVENT and prints its mean retire latency in cycles
// in place of a count, named `EVENT:R` or `cpu_core/EVENT/R`.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "model/dependencies.h"

namespace topdown::import {

// EVENT of a retire-latency row's name; nullopt for any other name.
std::optional<std::string_view> retire_latency_event(std::string_view name);

// Each event's rows (one per CPU with -A, one per interval with -I) averaged.
class RetireLatencyRows {
 public:
  // Adds a row and writes the event's mean so far into `means`, by formula
  // name (model::retire_latency_name).
  void add(std::string_view event, double cycles, model::RetireLatencies& means);

 private:
  std::map<std::string, std::pair<double, size_t>, std::less<>> sums_;  // by formula name: sum, rows
};

}  // namespace topdown::import
