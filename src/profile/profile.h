#pragma once
// The per-function profile of a sampled run (`topdown report`): every
// function's counts evaluated with the run's one prepared evaluator, flagged
// only where the function takes enough of the clockticks (the Skylake tuning
// guide's 5% rule), values resting on few samples marked unreliable, and the
// code where the whole run's bottleneck's sample events land most.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "eval/evaluate.h"
#include "model/dependencies.h"
#include "profile/attribute.h"
#include "recording/recording.h"

namespace topdown::profile {

// A value resting on fewer samples than this is unreliable: with n samples
// a count is known to about 1/sqrt(n), here ±18% or worse.
constexpr uint64_t kMinSamples = 30;

struct Options {
  double min_share = 0.05;  // of the clockticks: below, a function's nodes are never flagged
  uint64_t min_samples = kMinSamples;
  std::string sort_node;    // order functions by this node's slots (value x clockticks); empty: by share
  size_t locate_rows = 10;  // rows of the locate table
};

struct FunctionResult {
  Function function;
  eval::Evaluation evaluation;
  bool hot = false;  // share >= Options::min_share: its nodes may be flagged
  // The samples each node's value rests on: those of the group it is
  // computed from, or the fewest of the groups its events come from.
  std::map<std::string, uint64_t, std::less<>> node_samples;
};

// Where the whole run's bottleneck's events land, by function and line.
struct Hotspot {
  uint32_t symbol = 0;  // into Recording::symbols
  double weight = 0;    // the located events' deltas summed
  double share = 0;     // of every sample's weight
  uint64_t samples = 0;
};
struct Locate {
  std::string node;
  // The model's sample events of the node when recorded, else the node's own
  // events but the clock event (unless it is the only one).
  std::vector<std::string> events;
  bool sample_events = false;  // events are the node's `sample` entries
  std::vector<Hotspot> rows;   // heaviest first, at most Options::locate_rows
  // Why the node is not located (no events, no rows), else empty: a
  // complement (1 - X) without sample events of its own, whose events are
  // X's and would rank a function the more the less it has of the node.
  std::string not_located;
};

struct Profile {
  std::string clock_event;                // Attribution::clock_event
  FunctionResult whole;                   // every sample, never held to the share rule
  std::vector<FunctionResult> functions;  // every function, by share or by Options::sort_node
  std::optional<Locate> locate;           // none without a bottleneck
};

// The group each node is computed from, for eval::Options::node_groups as
// stat's plan gives it: the first group that holds every event of the node
// and counts some of them as copies. Nodes spread over groups are not listed.
std::map<std::string, int, std::less<>> node_groups(const recording::Header& header,
                                                    const model::Dependencies& dependencies,
                                                    const std::vector<std::string>& nodes);

// Each of `functions` (attribute_children, attribute_callers) evaluated as
// analyse() evaluates a function, in their order or by Options::sort_node.
// Throws Error when Options::sort_node is not one of the evaluated nodes.
std::vector<FunctionResult> analyse_functions(const recording::Header& header, std::vector<Function> functions,
                                              const eval::Evaluator& evaluator, const model::Dependencies& dependencies,
                                              const Options& options);

// `attribution` of `recording` (attribute()) evaluated with `evaluator`,
// prepared with `dependencies`' choices and node_groups(). Throws Error when
// Options::sort_node is not one of the evaluated nodes.
Profile analyse(const recording::Recording& recording, Attribution attribution, const eval::Evaluator& evaluator,
                const model::Dependencies& dependencies, const Options& options);

}  // namespace topdown::profile
