#pragma once
// The prepared form of an evaluation, private to eval: every name that a
// selected node's formula or threshold uses is bound once to a slot, so that
// evaluating a sample compares no strings but the sample's event names.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "eval/evaluate.h"
#include "expr/program.h"

namespace topdown::eval {

enum class SlotKind : std::uint8_t {
  Event,       // index: into Prepared::events
  Formula,     // index: into Prepared::formulas (a definition or a node's value)
  Verdict,     // index: into Prepared::nodes; a threshold's over(NODE)
  This,        // a threshold's own node value
  ParentOver,  // whether the node's parent is over its threshold
  Duration,    // interval-s, duration_time: the sample's wall time
  Known,       // a value known before counting (#slots)
  Rejected,    // a name only a threshold may use, met elsewhere: an error when read
};

struct Slot {
  SlotKind kind = SlotKind::Event;
  std::uint32_t index = 0;
  expr::Value known;  // SlotKind::Known
  std::string name;   // the identifier, for messages
};

struct PreparedFormula {
  std::optional<expr::Program> program;  // set once compiled
  bool uses_fallback = false;
  std::vector<std::uint32_t> formulas;  // the formulas it reads
  std::vector<std::uint32_t> inputs;    // the Duration and Known slots it reads
};

// A node whose value or verdict is needed.
struct PreparedNode {
  const model::Node* node = nullptr;
  std::uint32_t formula = 0;  // into Prepared::formulas
  std::optional<expr::Program> threshold;
  std::optional<std::uint32_t> parent;  // into Prepared::nodes, when the threshold uses parent_over
};

struct SelectedNode {
  std::uint32_t node = 0;             // into Prepared::nodes
  int group = 0;                      // Options::node_groups; 0: every event's own count
  std::vector<std::uint32_t> events;  // Dependencies::events_of, into Prepared::events
  std::vector<std::uint32_t> inputs;  // Duration and Known slots its value reads, directly or not
};

struct Evaluator::Prepared {
  Prepared(std::shared_ptr<const model::FoldedModel> folded, std::vector<std::string> node_names,
           const Options& options);

  model::Dependencies deps;
  Options options;
  std::vector<std::string> node_names;  // as asked
  std::vector<Slot> slots;
  std::vector<std::string> events;  // sorted as counts::Sample orders them
  std::vector<PreparedFormula> formulas;
  std::vector<PreparedNode> nodes;
  std::vector<SelectedNode> selected;
  // Events of the model's shared definitions (cycles, slots): the
  // denominators of many nodes, watched for dead counters.
  std::vector<std::string> reference_events;
};

}  // namespace topdown::eval
