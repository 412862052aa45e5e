#pragma once
// topdown compare: two saved reports (the --json of stat, stat -r, import,
// or any report whose records have a scope: units, functions) compared node
// by node and Info metric by Info metric, scope by scope, with Welch's t-test
// where both sides have repeated runs; gates (--fail-if) on the changes; the
// comparison as text, CSV and JSON (README.md).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topdown::compare {

// One node or Info metric of a saved report's record.
struct Measure {
  std::string name;
  std::string parent;
  int level = 0;                // 0: an Info metric
  std::string unit;             // "fraction" for tree nodes, else the Info metric's unit
  std::string area;             // of a tree node (FE, BAD, BE/Mem, ...), for the HTML page's colours
  std::optional<double> value;  // the mean when there were several runs; nullopt: n/a
  int runs = 1;                 // measurements behind the value (stat -r runs, or intervals)
  double stddev = 0;            // of those measurements
  bool share = false;           // a profiled function's share of the clockticks (a fraction, in points)

  bool is_fraction() const { return level > 0 || share; }
};

// The measures of one scope ("" for a report without units): its whole
// run's record or, for a report of intervals only, the intervals' mean.
struct Scope {
  std::string name;
  std::vector<Measure> measures;  // in the report's order
  bool from_intervals = false;    // runs count intervals, not runs
  // A function of a profile (topdown report): its name and module as the
  // report gives them, and its share of the clockticks.
  std::string function;
  std::string module;
  std::optional<Measure> share;
};

struct SavedReport {
  std::string label;  // the file, as the user named it
  std::string model;
  std::string tma_version;    // of `model` ("5.2"); empty when the report does not say (older reports)
  int deepest_level = 0;      // of its tree nodes
  std::vector<Scope> scopes;  // in the order the report first names them
};

// Reads a --json report: one object, or one per line (-I, --per-*,
// per-function). Whole-run records (time absent or null) are kept; a scope
// with intervals only is their mean, each interval a measurement. Throws
// Error (naming `label`) for text that is not such a report: not JSON, cut
// off, another tool's JSON, no nodes.
// A profile's records (`topdown report --json`) are functions: their share
// is kept beside their nodes; its `locate` records are not scopes and are
// skipped.
SavedReport read_report(std::string_view text, const std::string& label);

// Several reports of one side (each a single run: a recording, a stat
// without -r) as one of repeated runs: each scope's measures (and share)
// the mean and spread of the reports that have them. Throws Error, naming
// the file, for reports of different models or levels and for a report of
// repeated runs or intervals already.
SavedReport combine_runs(std::vector<SavedReport> runs);

struct Change {
  std::string name;
  std::string parent;
  int level = 0;
  std::string unit;
  std::string area;
  std::optional<double> a;  // n/a, or absent from that side
  std::optional<double> b;
  int a_runs = 0;
  int b_runs = 0;
  // B - A in points (percent of slots) for fractions, else in percent of A;
  // nullopt when a side is n/a (or A is 0 for a percent).
  std::optional<double> change;
  std::optional<double> p_value;  // Welch's, when both sides have 2 runs or more
  // p_value < alpha and the change at least the comparison's min_change.
  bool significant = false;
  bool share = false;  // a function's share of the clockticks

  bool judged() const { return p_value.has_value(); }
  bool in_points() const { return level > 0 || share; }
  // Significant where it can be judged; else (a single run on a side) at
  // least `min_change`, as measured: what gates trip on and what is flagged.
  bool moved(double min_change) const;
};

struct ScopeChanges {
  std::string scope;
  std::vector<Change> changes;  // A's order, then what only B has
  std::string function;         // of a profile's scope, as Scope
  std::string module;
  std::optional<Change> share;  // of the clockticks, when both sides are profiles
};

// The smallest change worth calling significant, in points for tree nodes
// and in percent of A for Info metrics: with a steady workload a drift of a
// fraction of a point between two series has a tiny p-value but no meaning.
constexpr double kDefaultMinChange = 1;

struct Comparison {
  SavedReport a;
  SavedReport b;
  double alpha = 0.05;
  double min_change = kDefaultMinChange;
  std::vector<ScopeChanges> scopes;  // the scopes both have, in A's order
  std::vector<std::string> only_in_a;
  std::vector<std::string> only_in_b;
};

// A change is significant when Welch's p < `alpha` and |change| >=
// `min_change`. Throws Error naming both files when they are of different
// models, TMA versions (where both say theirs) or levels, or have no scope
// in common.
Comparison compare(SavedReport a, SavedReport b, double alpha, double min_change = kDefaultMinChange);

// --fail-if [FUNCTION:]NODE>+LIMIT or NODE<-LIMIT: the change in points
// (fractions) or percent (the rest) past which the gate trips; with a
// FUNCTION, only in the scopes of that function of a profile.
struct Gate {
  std::string text;  // as given
  std::string function;
  std::string name;
  bool above = true;  // '>' (trips above the limit) or '<' (below)
  double limit = 0;
};
// Throws Error saying the syntax for anything else.
Gate parse_gate(const std::string& text);

struct GateVerdict {
  Gate gate;
  std::vector<std::string> tripped_in;  // scopes where it tripped
  bool found = false;                   // the node is in the comparison
};
// A gate trips where the node's change is past its limit and has moved
// (Change::moved). Throws Error for a gate on a node, or a function, neither
// report has.
std::vector<GateVerdict> check_gates(const Comparison& comparison, const std::vector<Gate>& gates);

// The words and numbers of every rendering (text and the HTML page).
std::string value_text(const std::optional<double>& value, bool fraction);  // "12.3%", "2.50", "n/a"
std::string change_text(const Change& change);                              // "+1.2 pt", "-25.0%", "n/a"
std::string p_text(double p);                                               // "p 0.003", "p < 0.0001"
// The floor under significance: "1 point (Info metrics: 1%)".
std::string min_change_text(double min_change);
// "yes (p 0.003)", "no (p 0.41)", "cannot judge", or "" when a side lacks a value.
std::string significance_text(const Change& change);

// Whether any change could be judged (both sides with repeated runs).
bool any_judged(const Comparison& comparison);

// The most measurements behind a side's values, and what they are.
struct SideRuns {
  int runs = 1;
  bool intervals = false;  // intervals of one run, not runs
};
SideRuns side_runs(const SavedReport& report);

// The significant changes, tree nodes (points) before Info metrics
// (percent), each biggest first.
struct Move {
  const std::string* scope;
  const Change* change;
};
std::vector<Move> significant_moves(const Comparison& comparison);

// Whether `function` (a report's function name: "ns::parse_row(char const*)")
// is what a user named `wanted`: the whole name, the name without its
// parameters, or that without its namespaces and classes ("parse_row").
bool names_function(const std::string& function, const std::string& wanted);

// The functions whose share of the clockticks moved (Change::moved),
// biggest move first.
std::vector<const ScopeChanges*> moved_functions(const Comparison& comparison);

struct TextOptions {
  bool color = false;
};
std::string render_text(const Comparison& comparison, const std::vector<GateVerdict>& verdicts,
                        const TextOptions& options);
std::string render_csv(const Comparison& comparison);
std::string render_json(const Comparison& comparison, const std::vector<GateVerdict>& verdicts);

}  // namespace topdown::compare
