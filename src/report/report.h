#pragma once
// Reports: the same evaluation as a text tree for people, CSV and JSON for
// programs. The CSV and JSON layouts are documented in README.md and stable.
#include <string>
#include <vector>

#include "counts/counts.h"
#include "eval/evaluate.h"

namespace topdown::report {

// What was measured, printed with the results.
struct RunInfo {
  std::string model_name;
  std::string model_title;
  std::vector<std::string> command;  // the workload (empty for an import)
  std::string source;                // the imported file (empty for a live run)
  // The end of the interval this report covers (import --per-interval); JSON
  // is then one line per report.
  std::optional<double> interval_time_s;
  double elapsed_s = 0;
  std::optional<int> exit_code;
  int groups = 0;
  bool multiplexed = false;
  std::vector<std::string> extra_events;  // -e events: printed as counts
};

struct TextOptions {
  bool verbose = false;  // also nodes under their threshold
  bool color = false;    // ANSI colours (TTY only)
};

std::string render_text(const eval::Evaluation& evaluation, const counts::Sample& sample, const RunInfo& run,
                        const TextOptions& options);
std::string render_csv(const eval::Evaluation& evaluation, const counts::Sample& sample, const RunInfo& run);
std::string render_json(const eval::Evaluation& evaluation, const counts::Sample& sample, const RunInfo& run);

// One word for how far a value can be trusted: "ok", "n/a", "multiplexed",
// "unreliable" or "out_of_range" (the first that applies, worst first).
std::string status_of(const eval::NodeResult& node);

}  // namespace topdown::report
