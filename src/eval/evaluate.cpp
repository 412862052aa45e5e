#include "eval/evaluate.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "eval/bottleneck.h"
#include "eval/prepared.h"

namespace topdown::eval {
namespace {

// A fraction this little outside [0, 1] prints as 0.0% or 100.0% and comes
// from two clocks read a few microseconds apart (task-clock against the
// interval's wall time), not from inconsistent counts.
constexpr double kRangeSlack = 0.0005;

// The sample's counts of the prepared events, found in one walk over both
// (each sorted by event name): each event's own count, and its copies.
struct SampleCounts {
  struct Copy {
    std::uint32_t event;
    int group;
    const counts::Count* count;
  };
  std::vector<const counts::Count*> own;
  std::vector<Copy> copies;

  SampleCounts(const std::vector<std::string>& events, const counts::Sample& sample) : own(events.size(), nullptr) {
    auto it = sample.events.begin();
    const auto end = sample.events.end();
    for (std::uint32_t e = 0; e < events.size(); ++e) {
      while (it != end && it->first.event < events[e]) ++it;
      for (; it != end && it->first.event == events[e]; ++it) {
        if (it->first.group == 0)
          own[e] = &it->second;
        else
          copies.push_back({e, it->first.group, &it->second});
      }
    }
  }

  // The counts a node computed from `group` reads: the group's copy where
  // there is one, else the event's own count.
  std::vector<const counts::Count*> of_group(int group) const {
    std::vector<const counts::Count*> chosen = own;
    for (const Copy& copy : copies) {
      if (copy.group == group) chosen[copy.event] = copy.count;
    }
    return chosen;
  }
};

// Values, approximations and verdicts computed from one group's counts
// (memoised: nodes refer to each other a lot).
class GroupScope final : public expr::Slots {
 public:
  GroupScope(const Evaluator::Prepared& prepared, std::vector<const counts::Count*> counts, double duration_s)
      : p_(prepared),
        counts_(std::move(counts)),
        scaled_(counts_.size()),
        duration_s_(duration_s),
        values_(prepared.formulas.size()),
        computed_(prepared.formulas.size(), 0),
        approximate_(prepared.formulas.size(), 0),
        verdicts_(prepared.nodes.size(), kUnknown) {
    // Every event is read by several nodes: scale each once.
    for (size_t e = 0; e < counts_.size(); ++e) {
      if (counts_[e]) scaled_[e] = counts_[e]->scaled();
    }
  }

  const counts::Count* count(std::uint32_t event) const { return counts_[event]; }
  // The event's count extrapolated to its enabled time; n/a when it was not
  // counted, never ran or is not a valid count.
  const expr::Value& scaled(std::uint32_t event) const { return scaled_[event]; }

  expr::Value value_of(std::uint32_t slot) override {
    const Slot& s = p_.slots[slot];
    switch (s.kind) {
      case SlotKind::Event:
        return scaled_[s.index];
      case SlotKind::Formula:
        return formula(s.index);
      case SlotKind::Verdict:
        return is_over(s.index) ? 1.0 : 0.0;
      case SlotKind::This:
        return this_value_;
      case SlotKind::ParentOver:
        return parent_over_ ? 1.0 : 0.0;
      case SlotKind::Duration:
        return duration_s_ > 0 ? expr::Value{duration_s_} : std::nullopt;
      case SlotKind::Known:
        return s.known;
      case SlotKind::Rejected:
        break;
    }
    throw Error("'" + s.name + "' may only be used in a threshold");
  }

  expr::Value formula(std::uint32_t index) {
    if (!computed_[index]) {
      if (p_.formulas[index].uses_fallback) approximate_[index] = 1;
      // An exception ends the whole evaluation with this scope, so the stack
      // needs no unwinding on the way out.
      evaluating_.push_back(index);
      values_[index] = p_.formulas[index].program->run(*this);
      evaluating_.pop_back();
      computed_[index] = 1;
    }
    // Whatever is being computed from an approximate value is approximate too.
    if (approximate_[index]) {
      for (const std::uint32_t outer : evaluating_) approximate_[outer] = 1;
    }
    return values_[index];
  }

  bool is_approximate(std::uint32_t formula_index) const { return approximate_[formula_index] != 0; }

  // A value known already (the mean of repeated runs), not computed.
  void give(std::uint32_t formula_index, const expr::Value& value) {
    values_[formula_index] = value;
    computed_[formula_index] = 1;
  }

  // Whether the node is over its threshold: false without a threshold or a value.
  bool is_over(std::uint32_t node_index) {
    if (verdicts_[node_index] != kUnknown) return verdicts_[node_index] == kOver;
    const PreparedNode& node = p_.nodes[node_index];
    bool over = false;
    const expr::Value value = formula(node.formula);
    if (node.threshold && value) {
      // Only a threshold that asks may wait on the parent's verdict: Retiring
      // asks for Heavy_Operations' verdict, which must not ask for Retiring's.
      const bool parent_over = node.parent && is_over(*node.parent);
      const expr::Value outer_this = this_value_;
      const bool outer_parent_over = parent_over_;
      this_value_ = *value;
      parent_over_ = parent_over;
      const expr::Value holds = node.threshold->run(*this);
      this_value_ = outer_this;
      parent_over_ = outer_parent_over;
      over = holds && *holds != 0;
    }
    verdicts_[node_index] = over ? kOver : kUnder;
    return over;
  }

 private:
  static constexpr signed char kUnknown = -1;
  static constexpr signed char kUnder = 0;
  static constexpr signed char kOver = 1;

  const Evaluator::Prepared& p_;
  std::vector<const counts::Count*> counts_;
  std::vector<expr::Value> scaled_;
  double duration_s_;
  std::vector<expr::Value> values_;
  std::vector<unsigned char> computed_;  // not vector<bool>: read on every slot
  std::vector<unsigned char> approximate_;
  std::vector<signed char> verdicts_;
  std::vector<std::uint32_t> evaluating_;  // formulas being computed, outermost first
  expr::Value this_value_;
  bool parent_over_ = false;
};

// One scope per counter group that nodes are computed from: a node's
// references to other nodes are then computed from the same group's counts.
class GroupScopes {
 public:
  GroupScopes(const Evaluator::Prepared& prepared, const counts::Sample& sample,
              const std::vector<expr::Value>* given_values)
      : prepared_(prepared),
        given_values_(given_values),
        counts_(prepared.events, sample),
        duration_s_(sample.duration_s) {}

  GroupScope& of(int group) {
    auto it = scopes_.find(group);
    if (it == scopes_.end()) {
      it = scopes_.try_emplace(group, prepared_, counts_.of_group(group), duration_s_).first;
      if (given_values_) {
        for (size_t i = 0; i < prepared_.selected.size(); ++i) {
          it->second.give(prepared_.nodes[prepared_.selected[i].node].formula, (*given_values_)[i]);
        }
      }
    }
    return it->second;
  }

 private:
  const Evaluator::Prepared& prepared_;
  const std::vector<expr::Value>* given_values_;  // by selected node, or null
  SampleCounts counts_;
  double duration_s_;
  std::map<int, GroupScope> scopes_;
};

void check_reference_events(const std::vector<std::string>& events, const counts::Sample& sample,
                            std::vector<std::string>& warnings) {
  // Events in shared definitions (cycles, slots) are the denominators of many
  // nodes; one that reads 0 while it was counting points at a dead counter.
  for (const std::string& event : events) {
    const counts::Count* count = sample.find(event);
    if (count && count->value == 0 && count->time_running > 0) {
      warnings.push_back("event " + event +
                         " read 0 while it was counting: a dead counter or an event this CPU "
                         "does not count; values that divide by it are n/a");
    }
  }
}

void check_invalid_counts(const counts::Sample& sample, std::vector<std::string>& warnings) {
  for (const auto& [key, count] : sample.events) {
    if (count.valid()) continue;
    const std::string what =
        std::isfinite(count.value)
            ? fmt::format("the negative count {} (the counter went backwards between two reads)", count.value)
            : std::string("a count that is not a finite number (a sum that overflowed)");
    warnings.push_back("event " + counts::spelled(key) + " has " + what + "; values that use it are n/a");
  }
}

// The reason the machine cannot count the first of `missing` it cannot count.
std::string why_not_countable(const std::vector<std::string>& missing,
                              const std::map<std::string, std::string, std::less<>>& uncountable) {
  for (const std::string& event : missing) {
    if (const auto found = uncountable.find(event); found != uncountable.end()) return found->second;
  }
  return "";
}

}  // namespace

bool is_fraction_domain(const model::Node& node) { return !node.is_info; }

const NodeResult* Evaluation::find(std::string_view name) const {
  auto it = std::find_if(nodes.begin(), nodes.end(), [&](const NodeResult& r) { return r.node->name == name; });
  return it == nodes.end() ? nullptr : &*it;
}

const NodeResult* Evaluation::bottleneck() const {
  auto it = std::find_if(nodes.begin(), nodes.end(), [](const NodeResult& r) { return r.bottleneck; });
  return it == nodes.end() ? nullptr : &*it;
}

Evaluator::Evaluator(const model::Model& model, std::vector<std::string> nodes, const Options& options)
    : Evaluator(std::make_shared<const model::FoldedModel>(model, options.vars), std::move(nodes), options) {}

Evaluator::Evaluator(std::shared_ptr<const model::FoldedModel> folded, std::vector<std::string> nodes,
                     const Options& options)
    : prepared_(std::make_unique<const Prepared>(std::move(folded), std::move(nodes), options)) {}

Evaluator::Evaluator(Evaluator&&) noexcept = default;
Evaluator& Evaluator::operator=(Evaluator&&) noexcept = default;
Evaluator::~Evaluator() = default;

const std::vector<std::string>& Evaluator::nodes() const { return prepared_->node_names; }

Evaluation Evaluator::evaluate(const counts::Sample& sample) const { return evaluate(sample, nullptr); }

Evaluation Evaluator::evaluate_with_values(const counts::Sample& sample, const std::vector<expr::Value>& values) const {
  if (values.size() != prepared_->selected.size()) throw std::invalid_argument("one value per node is needed");
  return evaluate(sample, &values);
}

Evaluation Evaluator::evaluate(const counts::Sample& sample, const std::vector<expr::Value>* values) const {
  const Prepared& p = *prepared_;
  GroupScopes scopes(p, sample, values);
  Evaluation result;
  for (const auto& [key, count] : sample.events) {
    result.counted_share = std::min(result.counted_share, count.running_share());
  }

  double level1_sum = 0;
  bool level1_complete = true;
  result.nodes.reserve(p.selected.size());
  for (const SelectedNode& chosen : p.selected) {
    const PreparedNode& prepared_node = p.nodes[chosen.node];
    GroupScope& scope = scopes.of(chosen.group);
    NodeResult r;
    r.node = prepared_node.node;
    for (const std::uint32_t event : chosen.events) {
      // Present but never on a counter (time_running 0) or not a valid count: as good as missing.
      if (!scope.scaled(event)) r.missing_events.push_back(p.events[event]);
      if (const counts::Count* count = scope.count(event)) {
        r.counted_share = std::min(r.counted_share, count->running_share());
      }
    }
    r.value = scope.formula(prepared_node.formula);
    if (!r.value) r.not_countable = why_not_countable(r.missing_events, p.options.uncountable_events);
    if (!r.value && r.missing_events.empty()) {
      for (const std::uint32_t input : chosen.inputs) {
        const Slot& slot = p.slots[input];
        const bool unknown = slot.kind == SlotKind::Duration ? sample.duration_s <= 0 : !slot.known;
        if (unknown) r.unknown_inputs.push_back(slot.name);
      }
    }
    r.approximate = r.value && scope.is_approximate(prepared_node.formula);
    r.multiplexed = r.counted_share < 1.0;
    r.unreliable = r.counted_share < p.options.min_counted_share;
    r.out_of_range = r.value && is_fraction_domain(*r.node) && (*r.value < -kRangeSlack || *r.value > 1 + kRangeSlack);
    r.over_threshold = scope.is_over(chosen.node);
    if (r.node->level == 1) {
      if (r.value)
        level1_sum += *r.value;
      else
        level1_complete = false;
    }
    result.nodes.push_back(std::move(r));
  }

  if (level1_complete &&
      std::any_of(result.nodes.begin(), result.nodes.end(), [](const NodeResult& r) { return r.node->level == 1; })) {
    result.level1_sum = level1_sum;
    if (std::abs(level1_sum - 1) > p.options.level1_tolerance) {
      result.warnings.push_back(fmt::format("level 1 sums to {:.1f}%", level1_sum * 100) +
                                " instead of 100%: the counts are inconsistent (multiplexing, a dead counter or "
                                "a changing workload); treat every value as suspect");
    }
  }
  check_reference_events(p.reference_events, sample, result.warnings);
  check_invalid_counts(sample, result.warnings);
  mark_bottleneck(result.nodes);
  return result;
}

Evaluation evaluate(const model::Model& model, const std::vector<std::string>& nodes, const counts::Sample& sample,
                    const Options& options) {
  return Evaluator(model, nodes, options).evaluate(sample);
}

}  // namespace topdown::eval
