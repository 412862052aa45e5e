#pragma once
// Reports: the same evaluation as a text tree for people, CSV and JSON for
// programs. The CSV and JSON layouts are documented in README.md and stable.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "counts/counts.h"
#include "eval/evaluate.h"
#include "model/model.h"

namespace topdown::report {

// The function name of the whole run's report among sampled functions.
inline constexpr const char* kWholeProgram = "[whole program]";

// A report of `topdown report`: one function's samples, or the whole run's.
struct Sampled {
  std::string function;  // "[whole program]" for the whole run's report
  std::string module;
  double share = 0;                                           // of the clockticks (clock_event)
  std::string clock_event;                                    // empty when the recording has none
  uint64_t samples = 0;                                       // group samples of the function
  uint64_t min_samples = 0;                                   // a value resting on fewer is unreliable
  std::map<std::string, uint64_t, std::less<>> node_samples;  // the samples each node's value rests on
  uint64_t lost_samples = 0;                                  // the whole run's: records the kernel dropped
  bool truncated = false;                                     // the whole run's: the file ended inside a record
  // Which tree: "self" (the samples in the function), "children" (the
  // samples with it anywhere on the stack) or "callers" (those that reach it
  // through `call_path`, outermost caller first, the function last).
  std::string tree = "self";
  std::vector<std::string> call_path;
};

// What was measured, printed with the results.
struct RunInfo {
  std::string model_name;
  std::string model_title;
  std::string model_version;         // the model's method version ("5.2"), JSON's tma_version; empty when it has none
  std::vector<std::string> command;  // the workload (empty for an import)
  std::vector<int> cpus;             // counted system-wide on these CPUs (-a, -C)
  std::vector<int> pids;             // counted on these running processes (-p)
  std::vector<std::string> cgroups;  // on those CPUs only these cgroups' tasks (-G), each its own report
  std::string source;                // the imported file (empty for a live run)
  double elapsed_s = 0;              // the run's wall time; an interval's length for an interval record; 0: not known
  std::optional<int> exit_code;
  std::optional<int> signal;  // the signal that killed the workload
  int groups = 0;
  bool multiplexed = false;
  std::vector<std::string> extra_events;  // -e events: printed as counts
  std::optional<Sampled> sampled;         // a report of sampled functions

  // The wall time when it is known (an import of a file that does not say
  // has none): never shown as 0 s.
  std::optional<double> known_elapsed_s() const {
    return elapsed_s > 0 ? std::optional<double>(elapsed_s) : std::nullopt;
  }

  // Names `model` (its name, title and version) as the one evaluated with.
  void describe_model(const model::ModelHeader& model) {
    model_name = model.name;
    model_title = model.title;
    model_version = model.version;
  }
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

// One report of a record: the whole record's, or one unit's among several
// (--per-thread, --per-core, --per-socket).
struct Report {
  std::string scope;  // the unit's label ("CPU3", "S0-C1", "S0", "app-4242"); empty without units
  eval::Evaluation evaluation;
  counts::Sample sample;
  RunInfo run;
  // On a hybrid CPU the core type whose tree this is ("P-core", "E-core"),
  // and, for a report without units, that type's share of the record's
  // cycles (the clock event of each type's model); empty and nullopt else.
  std::string core_type = {};
  std::optional<double> core_share = {};
};

struct Layout {
  Format format = Format::Text;
  TextOptions text;
  // Records of a stream of intervals (stat -I, import --per-interval), then,
  // for a live run, the whole run's.
  bool timed = false;
  // One report per unit in each record (never with Columns).
  bool scoped = false;
  // A hybrid CPU's: the reports of each core type (one each, or one per
  // unit of each with scoped; with Columns one each, the same types in
  // every record).
  bool core_typed = false;
  // Reports of sampled functions (RunInfo::sampled, with scoped): in CSV
  // leading function, module, share and samples columns instead of scope,
  // and a last node_samples column.
  bool sampled = false;
};

// Every report stat and import write, as records written as they happen:
// the single report of a run or file, each interval's, the whole run's
// after the intervals, each with one report or one per unit. The layouts
// are documented in README.md and stable:
//   Text    the text report; when timed, each record under "=== time T s ==="
//           (the whole run's under "=== whole run ===") after a blank line
//           but the first; when scoped, each unit's under "=== SCOPE ===",
//           a blank line between units;
//   Csv     the header once, then the rows; timed, a leading "time" column
//           (T; empty for the whole run); scoped, a "scope" column after it
//           (',', '"' and line breaks of a thread's command shown as '_');
//           core_typed, "core_type" and "core_share" columns before it;
//   Json    a single report indented; timed, scoped or core_typed, one
//           object per line, with "time" (T; null for the whole run),
//           "scope", "core_type" and "core_share" (null when unknown);
//   core_typed, in text each report under "=== CORE_TYPE[ SCOPE] ===",
//           with its share of the cycles when it has no scope; sampled,
//           each type's functions under one "=== CORE_TYPE: S% of the
//           cycles ===", and CSV's core_type and core_share columns first;
//   sampled (topdown report): each unit a function, its heading in text
//           with its share of the clockticks and its samples; CSV's
//           columns as csv_sampled_header();
//   Columns a header naming the level-1 nodes and the bottleneck, once, then
//           one line per record: the time ("total" for the whole run), each
//           level-1 node's value with its marks, the bottleneck's name;
//           core_typed, after the time one block per core type: a column
//           headed by the type with its share of the cycles ("-" unknown),
//           then its level-1 nodes and its bottleneck.
// T is the end of the interval in seconds since counting started; SCOPE the
// report's scope.
class CsvNodeFields;  // report/csv.h

class ReportWriter {
 public:
  // Throws std::invalid_argument for Columns with units.
  explicit ReportWriter(Layout layout);
  ReportWriter(ReportWriter&&) noexcept;
  ReportWriter& operator=(ReportWriter&&) noexcept;
  ~ReportWriter();

  // One record: an interval's reports (its end `time_s`) or the whole run's
  // (nullopt); one report, or with Layout::scoped one per unit (else
  // std::invalid_argument).
  std::string write(std::optional<double> time_s, const std::vector<Report>& reports);

 private:
  std::string text(std::optional<double> time_s, const std::vector<Report>& reports, bool first);
  std::string csv(std::optional<double> time_s, const std::vector<Report>& reports, bool first) const;
  std::string json(std::optional<double> time_s, const std::vector<Report>& reports) const;
  std::string columns(std::optional<double> time_s, const std::vector<Report>& reports, bool first);
  std::string sampled_csv(const std::vector<Report>& reports, bool first) const;

  Layout layout_;
  bool first_ = true;
  std::vector<std::string> column_core_types_;  // of the columns' header (Columns and core_typed)
  std::string core_type_;                       // of the profile's last function written (sampled and core_typed text)
  std::unique_ptr<CsvNodeFields> node_fields_;  // of the CSV records written so far
};

// The --columns view: a header line for the evaluation's level-1 nodes and
// one line per record (time_s nullopt: the whole run, labelled "total").
std::string render_columns_header(const eval::Evaluation& evaluation);
std::string render_columns_row(const eval::Evaluation& evaluation, std::optional<double> time_s);
// The same of a hybrid CPU's record: one block of columns per report, each
// of one core type.
std::string render_core_type_columns_header(const std::vector<Report>& reports);
std::string render_core_type_columns_row(const std::vector<Report>& reports, std::optional<double> time_s);

// "P-core: 62.5% of the cycles", or "P-core" when the share is not known.
std::string core_type_share_heading(const Report& report);

// "SIGINT" for 2.
std::string signal_name(int signal);

// One word for how far a value can be trusted: "ok", "n/a", "multiplexed",
// "unreliable" or "out_of_range" (the first that applies, worst first).
std::string status_of(const eval::NodeResult& node);

}  // namespace topdown::report
