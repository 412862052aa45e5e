#pragma once
// Synthetic `perf script` output of a leader-sampled recording with known
// per-function counts, and the counts file (README's import section) of one
// function's totals: `topdown report` of the first must give each function
// the tree `topdown import` gives the second.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace topdown::testing {

struct SyntheticFunction {
  std::string name;
  std::string module = "/usr/bin/app";
  std::string source;                      // "app.c:42" (the srcline line), empty: none
  std::map<std::string, uint64_t> totals;  // per event over all its samples
  int samples = 40;
  // Its callers, innermost first: when given, every sample carries the
  // callchain (perf record -g) of the function and these.
  std::vector<std::string> callers = {};
};

// The group is sampled by group[0]; each function's totals are spread over
// its samples (the remainder on the last), samples of the functions taken
// in turn, a microsecond apart. A member that counted 0 is left out, as
// perf leaves it out.
inline std::string synthetic_perf_script(const std::vector<std::string>& group,
                                         const std::vector<SyntheticFunction>& functions) {
  std::string out = "# group: {" + fmt::format("{}", fmt::join(group, ",")) + "}\n";
  std::vector<int> taken(functions.size(), 0);
  uint64_t time_us = 1'000'000;
  for (bool more = true; more;) {
    more = false;
    for (size_t f = 0; f < functions.size(); ++f) {
      const SyntheticFunction& function = functions[f];
      if (taken[f] == function.samples) continue;
      more = true;
      const int n = taken[f]++;
      const bool last = taken[f] == function.samples;
      time_us += 1;
      for (size_t e = 0; e < group.size(); ++e) {
        auto total = function.totals.find(group[e]);
        const uint64_t sum = total == function.totals.end() ? 0 : total->second;
        const uint64_t share = sum / static_cast<uint64_t>(function.samples);
        const uint64_t delta = last ? sum - share * static_cast<uint64_t>(n) : share;
        if (delta == 0 && e > 0) continue;
        if (!function.callers.empty()) {
          out += fmt::format("{:>16} 4242/4243 {}.{:06}: {:>10} {}: \n", "app", time_us / 1'000'000,
                             time_us % 1'000'000, delta, group[e]);
          out += fmt::format("\t{:>16x} {} ({})\n", 0x401000 + 0x100 * f, function.name, function.module);
          for (size_t c = 0; c < function.callers.size(); ++c) {
            out += fmt::format("\t{:>16x} {} ({})\n", 0x402000 + 0x100 * c, function.callers[c], function.module);
          }
          out += "\n";
          continue;
        }
        out += fmt::format("{:>16} 4242/4243 {}.{:06}: {:>10} {}: {:>16x} {} ({})\n", "app", time_us / 1'000'000,
                           time_us % 1'000'000, delta, group[e], 0x401000 + 0x100 * f, function.name, function.module);
        if (!function.source.empty()) out += "  " + function.source + "\n";
      }
    }
  }
  return out;
}

// The counts file of one function's totals (README, "A counts file").
inline std::string counts_file(const std::map<std::string, uint64_t>& totals, bool smt) {
  std::string out = fmt::format("smt_enabled {}\n", smt ? 1 : 0);
  for (const auto& [event, value] : totals) out += fmt::format("{} {}\n", event, value);
  return out;
}

// Totals of every event for `cycles` clockticks of an Intel core (Haswell,
// Skylake): level 1 at 10% Frontend Bound, 20% Retiring, about 60% Backend
// Bound; every other event a fixed fraction of the cycles taken from its
// name, so that functions of one model differ only in their cycles.
inline std::map<std::string, uint64_t> intel_totals(const std::vector<std::string>& events, uint64_t cycles) {
  const std::map<std::string, double> level1 = {
      {"IDQ_UOPS_NOT_DELIVERED.CORE", 0.4}, {"UOPS_RETIRED.RETIRE_SLOTS", 0.8}, {"UOPS_ISSUED.ANY", 1.0},
      {"INT_MISC.RECOVERY_CYCLES", 0.01},   {"INST_RETIRED.ANY", 0.7},          {"INST_RETIRED.ANY_P", 0.7}};
  std::map<std::string, uint64_t> totals;
  for (const auto& event : events) {
    double ratio = 0;
    if (event.rfind("CPU_CLK_UNHALTED.THREAD", 0) == 0) {
      ratio = 1;
    } else if (auto found = level1.find(event); found != level1.end()) {
      ratio = found->second;
    } else {
      ratio = 0.001 + static_cast<double>(std::hash<std::string>{}(event) % 200) / 1000.0;
    }
    totals[event] = static_cast<uint64_t>(ratio * static_cast<double>(cycles));
  }
  return totals;
}

}  // namespace topdown::testing
