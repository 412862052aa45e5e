#pragma once
// What a run of a model needs: the formula each node uses once the run's
// fixed facts (SMT on/off, constants) are folded in, and the events each node
// needs through definitions and the nodes it refers to. Shared by scheduling
// (which events to count), import (which formulas the counts allow) and
// evaluation (which events a value came from).
//
// Folding every formula is the costly part and depends only on the model and
// the run variables, so it is done once (FoldedModel) and shared by every
// Dependencies built on it: trying one identity or fallback more costs a walk
// of the formulas, not a fold.
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>

#include "expr/expression.h"
#include "model/model.h"

namespace topdown::model {

// Mean retire latencies in cycles, by formula name (retire_latency_name).
using RetireLatencies = std::map<std::string, double, std::less<>>;

// Facts about a run known before counting starts.
struct RunVariables {
  bool smt_enabled = false;
  bool ebs_mode = false;
  // Level 1 (and on Sapphire Rapids level 2) comes from Intel's PERF_METRICS
  // register rather than from general-counter events.
  bool perf_metrics = false;
  int online_cpus = 0;  // num_cpus_online; 0 when unknown (n/a)
  // The machine's sockets and CHA boxes per socket (perfmon's SOCKET_COUNT
  // and CHAS_PER_SOCKET, #socket_count and #chas_per_socket); 0 when unknown.
  int sockets = 0;
  int chas_per_socket = 0;
  int cores_per_socket = 0;  // perfmon's CORES_PER_SOCKET, #cores_per_socket; 0 when unknown
  // Those the run measured or was given; they take the place of the model's defaults.
  RetireLatencies retire_latencies{};
};

// Nodes that use their `identity` formula instead of the primary one.
using IdentityChoice = std::set<std::string, std::less<>>;
// Nodes that use their `fallback` formula (import, when the counts lack
// events of the others).
using FallbackChoice = std::set<std::string, std::less<>>;

// Every formula of a model with the run variables and constants folded in.
class FoldedModel {
 public:
  FoldedModel(const Model& model, const RunVariables& vars);
  FoldedModel(const FoldedModel&) = delete;
  FoldedModel& operator=(const FoldedModel&) = delete;

  struct NodeFormulas {
    expr::Expression formula;
    std::optional<expr::Expression> identity;
    std::optional<expr::Expression> fallback;
    std::optional<expr::Expression> threshold;
    bool asks_parent = false;  // the threshold uses parent_over
  };

  const Model& model() const { return *model_; }
  const RunVariables& vars() const { return vars_; }
  const NodeFormulas* node(std::string_view name) const;
  const expr::Expression* definition(std::string_view name) const;

  // How many have been built in this process: evaluation builds one per run,
  // never one per interval (tests count them).
  static std::uint64_t built() { return built_.load(std::memory_order_relaxed); }

 private:
  const Model* model_;
  RunVariables vars_;
  std::map<std::string, NodeFormulas, std::less<>> nodes_;
  std::map<std::string, expr::Expression, std::less<>> definitions_;
  static inline std::atomic<std::uint64_t> built_{0};
};

class Dependencies {
 public:
  // Throws Error when the chosen formulas refer to each other in a cycle.
  Dependencies(std::shared_ptr<const FoldedModel> folded, IdentityChoice identities = {},
               const FallbackChoice& fallbacks = {});
  // Folds the model for `vars` first; for one-off use.
  Dependencies(const Model& model, const RunVariables& vars, IdentityChoice identities = {},
               const FallbackChoice& fallbacks = {});

  const Model& model() const { return folded_->model(); }
  const std::shared_ptr<const FoldedModel>& folded() const { return folded_; }
  const IdentityChoice& identities() const { return identities_; }
  const FallbackChoice& fallbacks() const { return fallbacks_; }
  // Whether the node's value is its fallback formula's.
  bool uses_fallback(std::string_view node) const { return fallbacks_.count(node) > 0; }

  // The node's chosen formula, folded.
  const expr::Expression& formula(std::string_view name) const;
  const expr::Expression* definition(std::string_view name) const { return folded_->definition(name); }
  const expr::Expression* threshold(std::string_view name) const;
  // Whether the node's threshold uses parent_over (waits on the parent's verdict).
  bool asks_parent(std::string_view name) const;

  // Events (identifiers that are not constants, definitions, nodes or run
  // variables) the node's value and threshold need, transitively (through
  // over(NODE), the other node's value and threshold).
  const std::set<std::string>& events_of(std::string_view name) const;

  // What `name` is, for evaluation.
  // Verdict is a threshold's over(NODE): whether NODE is over its threshold.
  enum class Kind { Constant, Definition, Node, RunVariable, Verdict, Event };
  Kind kind_of(std::string_view name) const;

 private:
  void check_value_cycles() const;
  void collect(std::string_view name, std::set<std::string>& events, bool with_threshold) const;
  const FoldedModel::NodeFormulas& node(std::string_view name) const;

  std::shared_ptr<const FoldedModel> folded_;
  IdentityChoice identities_;
  FallbackChoice fallbacks_;
  std::map<std::string, std::set<std::string>, std::less<>> events_;
};

// Value of a run variable known before the run (smt_enabled, #smt_on,
// ebs_mode, perf_metrics, num_cpus_online, #socket_count, #chas_per_socket,
// #cores_per_socket);
// nullopt for names that are not such variables.
std::optional<expr::Value> known_run_variable(std::string_view name, const RunVariables& vars);

}  // namespace topdown::model
