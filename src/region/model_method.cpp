#include <optional>

#include "eval/evaluate.h"
#include "region/method.h"

namespace topdown::region {
namespace {

// An Info metric we add to the model so that the evaluator computes the
// region's slots through the model's own SLOTS (a definition on AMD, an Info
// metric on Intel).
constexpr const char* kRegionSlots = "Region_Slots";

bool defines_slots(const model::Model& model) {
  if (model.find("SLOTS")) return true;
  for (const auto& [name, formula] : model.definitions) {
    if (name == "SLOTS") return true;
  }
  return false;
}

counts::Count count_of(int64_t delta, const Totals& totals) {
  counts::Count count;
  count.value = delta > 0 ? static_cast<double>(delta) : 0.0;
  if (totals.time_enabled == 0) {
    // No time information (the kernel gave none): the group is one group that
    // is never multiplexed against itself, so count it as counted throughout.
    count.time_enabled = count.time_running = 1;
  } else {
    count.time_enabled = totals.time_enabled;
    count.time_running = totals.time_running;
  }
  return count;
}

class ModelMethod final : public Method {
 public:
  ModelMethod(model::Model model, std::vector<std::string> nodes, std::vector<std::string> events,
              model::RunVariables vars, model::IdentityChoice identities)
      : model_(std::move(model)), nodes_(std::move(nodes)), events_(std::move(events)) {
    eval::Options options;
    options.vars = std::move(vars);
    options.identities = std::move(identities);
    if (defines_slots(model_)) {
      model::Node slots;
      slots.name = kRegionSlots;
      slots.is_info = true;
      slots.formula = expr::Expression::parse("SLOTS");
      model_.nodes.push_back(std::move(slots));
      with_slots_ = nodes_;
      with_slots_.push_back(kRegionSlots);
    } else {
      with_slots_ = nodes_;
    }
    evaluator_.emplace(model_, with_slots_, options);
  }

  void evaluate(const Totals& totals, RegionResult& result) const override {
    counts::Sample sample;
    for (std::size_t i = 0; i < events_.size(); ++i) sample.add(events_[i], count_of(totals.deltas[i], totals));
    const eval::Evaluation evaluation = evaluator_->evaluate(sample);
    if (const eval::NodeResult* slots = evaluation.find(kRegionSlots)) result.slots = slots->value;
    result.counted_share = evaluation.counted_share;
    result.warnings.insert(result.warnings.end(), evaluation.warnings.begin(), evaluation.warnings.end());
    for (const eval::NodeResult& evaluated : evaluation.nodes) {
      const model::Node& node = *evaluated.node;
      if (node.name == kRegionSlots) continue;
      NodeValue value;
      value.name = node.name;
      value.vendor_name = node.vendor_name;
      value.parent = node.parent;
      value.level = node.level;
      value.fraction = evaluated.value;
      if (evaluated.value && result.slots && node.domain == "Slots") value.slots = *evaluated.value * *result.slots;
      value.over_threshold = evaluated.over_threshold;
      value.bottleneck = evaluated.bottleneck;
      result.nodes.push_back(std::move(value));
    }
  }

 private:
  model::Model model_;
  std::vector<std::string> nodes_;
  std::vector<std::string> with_slots_;
  std::vector<std::string> events_;
  std::optional<eval::Evaluator> evaluator_;  // of model_ as completed by the constructor
};

}  // namespace

std::unique_ptr<Method> make_model_method(model::Model model, std::vector<std::string> nodes,
                                          std::vector<std::string> events, model::RunVariables vars,
                                          model::IdentityChoice identities) {
  return std::make_unique<ModelMethod>(std::move(model), std::move(nodes), std::move(events), std::move(vars),
                                       std::move(identities));
}

}  // namespace topdown::region
