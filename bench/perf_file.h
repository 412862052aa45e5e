#pragma once
// Generated `perf stat -x, -I` files for the benchmarks: every event a
// model needs, with counts that vary by interval, event and CPU.
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "common/error.h"
#include "model/dependencies.h"
#include "model/model.h"

namespace topdown::bench {

// Every event of every tree node (levels 1-6) and Info metric, SMT on.
inline std::vector<std::string> events_for_all_nodes(const model::Model& model) {
  model::RunVariables vars;
  vars.smt_enabled = true;
  const model::Dependencies deps(model, vars);
  std::set<std::string> events;
  for (const auto& node : model.nodes) {
    const auto& needed = deps.events_of(node.name);
    events.insert(needed.begin(), needed.end());
  }
  return {events.begin(), events.end()};
}

// `intervals` intervals of `cpus` CPUs (-A rows; 0: rows without a CPU).
inline void write_perf_file(const std::filesystem::path& path, const std::vector<std::string>& events, int intervals,
                            int cpus) {
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (!out) throw Error("cannot write " + path.string());
  std::setvbuf(out, nullptr, _IOFBF, 1 << 20);
  std::fprintf(out, "# started on Mon Jan  6 10:00:00 2025\n\n");
  for (int i = 1; i <= intervals; ++i) {
    for (size_t e = 0; e < events.size(); ++e) {
      for (int cpu = 0; cpu < (cpus > 0 ? cpus : 1); ++cpu) {
        const unsigned long long value = 1000000ull + static_cast<unsigned long long>(i) * 7 + e * 13 + cpu;
        const std::string place = cpus > 0 ? "CPU" + std::to_string(cpu) + "," : "";
        std::fprintf(out, "%d.%09d,%s%llu,,%s,1000450000,%s,,\n", i, 450000, place.c_str(), value, events[e].c_str(),
                     e % 3 == 0 ? "50.00" : "100.00");
      }
    }
  }
  if (std::fclose(out) != 0) throw Error("cannot write " + path.string());
}

}  // namespace topdown::bench
