#pragma once
// Evaluation: node values, thresholds and the bottleneck, from one sample of
// counts. A pure function of (model, counts, run facts), so every rule here is
// testable with synthetic counts. An Evaluator is prepared once per model and
// selection (formulas folded and compiled, names bound to slots) and then
// evaluates every interval, unit or region of a run.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "counts/counts.h"
#include "model/dependencies.h"
#include "model/model.h"

namespace topdown::eval {

// A node's value over repeated runs (stat -r): NodeResult::value is then
// their mean.
struct Spread {
  int runs = 0;  // the runs that gave a value
  double stddev = 0;
  double ci95_low = 0;  // the 95% confidence interval of the mean (Student's t)
  double ci95_high = 0;
  // The runs disagree by more than the value itself: their range (largest
  // minus smallest) is above the mean's magnitude.
  bool unstable = false;
};

struct NodeResult {
  const model::Node* node = nullptr;
  expr::Value value;  // as computed: may be a little below 0 or above 1 (see out_of_range)
  bool over_threshold = false;
  bool bottleneck = false;  // the one node marked <==
  bool on_bottleneck_path = false;
  // Smallest share of the run its events were really counted (1 = always,
  // below 1 = multiplexed and extrapolated).
  double counted_share = 1.0;
  bool multiplexed = false;   // counted_share < 1: an estimate, not an exact count
  bool unreliable = false;    // counted too little of the time to be trusted
  bool out_of_range = false;  // a slot/cycle fraction outside [0, 1]
  // Computed from a node's fallback formula (its own or one it uses): a
  // lesser form of the model's value, for counts that lack some events.
  bool approximate = false;
  // Set by import for a file of several perf stat runs whose runs each hold
  // only some of the node's events: computed from the runs' rates (approximate too).
  bool from_run_rates = false;
  // Set by import for a CPU's or core's report (--per-thread, --per-core of
  // perf stat -A): the value uses counts a PMU keeps once per socket (uncore,
  // package), so it is the whole socket's, the same for each of its units.
  bool socket_wide = false;
  std::vector<std::string> missing_events;  // needed but not counted: value is n/a
  // Why the machine that counted cannot count one of missing_events
  // (Options::uncountable_events); empty when it was just not counted.
  std::string not_countable;
  // A value n/a with every event counted: the facts of the run it needs
  // that are not known (num_cpus_online of a file that does not say,
  // interval-s of counts without a duration). Empty when it is n/a for
  // another reason (a count of 0 to divide by).
  std::vector<std::string> unknown_inputs;
  std::optional<Spread> spread;  // of repeated runs (summarize_runs); nullopt for one run
};

struct Options {
  model::RunVariables vars;
  model::IdentityChoice identities;  // as the plan chose
  model::FallbackChoice fallbacks;   // as import chose (import::fallbacks_for)
  // When counter groups rotate (schedule::Plan::node_groups): the group whose
  // counts a node is computed from, so that its ratios compare counts of the
  // same time slices. Its events are read from that group's copies
  // (counts::EventKey) where the sample has them, else their own counts.
  // Nodes not listed read every event's own count.
  std::map<std::string, int, std::less<>> node_groups;
  // Events the machine cannot count, each with the reason
  // (schedule::Plan::uncountable_events): a node n/a for want of one says it.
  std::map<std::string, std::string, std::less<>> uncountable_events;
  // Below this share of the run a node's value is unreliable: marked `?` in
  // text and "unreliable" in CSV and JSON (README.md).
  double min_counted_share = 0.25;
  double level1_tolerance = 0.05;  // |sum of level 1 - 1| beyond this is suspicious
};

struct Evaluation {
  std::vector<NodeResult> nodes;  // in the order asked for
  std::optional<double> level1_sum;
  double counted_share = 1.0;         // smallest over all events of the sample
  std::vector<std::string> warnings;  // one line each, for people
  int runs = 0;                       // repeated runs summarized (summarize_runs); 0 for one run

  const NodeResult* find(std::string_view name) const;
  const NodeResult* bottleneck() const;
};

class Evaluator {
 public:
  // Prepares the evaluation of `nodes` (names from schedule::select_nodes or
  // any subset). Throws Error for a node the model lacks or formulas that
  // refer to each other in a cycle. `folded` may be shared with the
  // selection that chose the nodes (it must be of `options.vars`).
  Evaluator(const model::Model& model, std::vector<std::string> nodes, const Options& options);
  Evaluator(std::shared_ptr<const model::FoldedModel> folded, std::vector<std::string> nodes, const Options& options);
  Evaluator(Evaluator&&) noexcept;
  Evaluator& operator=(Evaluator&&) noexcept;
  ~Evaluator();

  // Thread-safe: evaluations share nothing but the prepared formulas.
  Evaluation evaluate(const counts::Sample& sample) const;
  // The same with the nodes' values given (one per nodes(), nullopt: n/a)
  // instead of computed: thresholds, verdicts and the bottleneck follow from
  // them, marks and missing events from `sample`. For the means of repeated
  // runs.
  Evaluation evaluate_with_values(const counts::Sample& sample, const std::vector<expr::Value>& values) const;
  const std::vector<std::string>& nodes() const;

  struct Prepared;  // private to eval

 private:
  Evaluation evaluate(const counts::Sample& sample, const std::vector<expr::Value>* values) const;

  std::unique_ptr<const Prepared> prepared_;
};

// The evaluation of repeated runs of one plan (stat -r): each node's value
// is the mean over the runs that gave one, with its Spread; thresholds and
// the bottleneck come from the means; marks from `total`, the runs' counts
// added up. `runs` are evaluator.evaluate() of each run; the runs'
// warnings are kept once each.
Evaluation summarize_runs(const Evaluator& evaluator, const std::vector<Evaluation>& runs, const counts::Sample& total);

// One evaluation of `nodes` without keeping the prepared form: for a single
// sample; use an Evaluator for many.
Evaluation evaluate(const model::Model& model, const std::vector<std::string>& nodes, const counts::Sample& sample,
                    const Options& options);

// Whether a node's domain is a share of slots or cycles (shown as percent).
bool is_fraction_domain(const model::Node& node);

}  // namespace topdown::eval
