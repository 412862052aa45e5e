#pragma once
// Reports: the same evaluation as a text tree for people, CSV and JSON for
// programs. The CSV and JSON layouts are documented in README.md and stable.
#include <optional>
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
  std::vector<int> cpus;             // counted system-wide on these CPUs (-a, -C)
  std::vector<int> pids;             // counted on these running processes (-p)
  std::string source;                // the imported file (empty for a live run)
  // The end of the interval this report covers (import --per-interval); JSON
  // is then one line per report.
  std::optional<double> interval_time_s;
  double elapsed_s = 0;  // the run's wall time; an interval's length for an interval record
  std::optional<int> exit_code;
  std::optional<int> signal;  // the signal that killed the workload
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

// The output formats; Columns is stat's compact view for terminals.
enum class Format { Text, Csv, Json, Columns };

// A report as a stream of records, written as they happen: one per interval
// (stat -I, import --per-interval), then, for a live run, one for the whole
// run. The layouts are documented in README.md and stable:
//   Text    the text report under "=== time T s ===" (the summary under
//           "=== whole run ===");
//   Csv     the CSV rows with a leading "time" column, the header once; the
//           summary's rows have an empty time;
//   Json    one object per line with "time" (null for the summary);
//   Columns a header naming the level-1 nodes and the bottleneck, once, then
//           one line per record: the time ("total" for the summary), each
//           level-1 node's value with its marks, the bottleneck's name.
// T is the end of the interval in seconds since counting started.
class IntervalStream {
 public:
  IntervalStream(Format format, TextOptions text) : format_(format), text_(text) {}

  std::string interval(const eval::Evaluation& evaluation, const counts::Sample& sample, const RunInfo& run,
                       double time_s);
  std::string summary(const eval::Evaluation& evaluation, const counts::Sample& sample, const RunInfo& run);

 private:
  std::string record(const eval::Evaluation& evaluation, const counts::Sample& sample, const RunInfo& run,
                     std::optional<double> time_s);

  Format format_;
  TextOptions text_;
  bool first_ = true;
};

// The --columns view: a header line for the evaluation's level-1 nodes and
// one line per record (time_s nullopt: the whole run, labelled "total").
std::string render_columns_header(const eval::Evaluation& evaluation);
std::string render_columns_row(const eval::Evaluation& evaluation, std::optional<double> time_s);

// A CSV report with a leading "time" column (empty for nullopt: a whole run's
// summary), its header line only when `with_header`.
std::string csv_with_time(const std::string& csv, std::optional<double> time_s, bool with_header);

// "SIGINT" for 2.
std::string signal_name(int signal);

// One word for how far a value can be trusted: "ok", "n/a", "multiplexed",
// "unreliable" or "out_of_range" (the first that applies, worst first).
std::string status_of(const eval::NodeResult& node);

}  // namespace topdown::report
