#include "eval/sample_scope.h"

namespace topdown::eval {
namespace {

// Binds the names only a threshold may use, then defers to the sample.
class ThresholdScope final : public expr::Scope {
 public:
  ThresholdScope(const SampleScope& base, double self, bool parent_over)
      : base_(base), self_(self), parent_over_(parent_over) {}
  expr::Value lookup(std::string_view name) const override {
    if (name == "this") return self_;
    if (name == "parent_over") return parent_over_ ? 1.0 : 0.0;
    if (const auto target = model::over_target(name)) return base_.is_over(*target) ? 1.0 : 0.0;
    return base_.lookup(name);
  }

 private:
  const SampleScope& base_;
  double self_;
  bool parent_over_;
};

}  // namespace

expr::Value SampleScope::lookup(std::string_view name) const {
  using Kind = model::Dependencies::Kind;
  switch (deps_.kind_of(name)) {
    case Kind::Constant:
      return deps_.model().constants.find(name)->second;
    case Kind::Definition:
      return memoised(name, *deps_.definition(name));
    case Kind::Node:
      return node_value(name);
    case Kind::RunVariable:
      if (auto known = model::known_run_variable(name, vars_)) return *known;
      if (name == "interval-s" || name == "duration_time") {
        return sample_.duration_s > 0 ? expr::Value{sample_.duration_s} : std::nullopt;
      }
      if (name == "#slots") {
        auto width = deps_.model().constants.find("Pipeline_Width");
        return width == deps_.model().constants.end() ? std::nullopt : expr::Value{width->second};
      }
      throw Error("'" + std::string(name) + "' may only be used in a threshold");
    case Kind::Verdict:
      throw Error("'" + std::string(name) + "' may only be used in a threshold");
    case Kind::Event:
      if (const counts::Count* count = count_of(name)) return count->scaled();
      return std::nullopt;
  }
  return std::nullopt;
}

const counts::Count* SampleScope::count_of(std::string_view event) const {
  if (group_ > 0) {
    if (const counts::Count* copy = sample_.find(counts::group_copy_name(event, group_))) return copy;
  }
  return sample_.find(event);
}

expr::Value SampleScope::node_value(std::string_view name) const { return memoised(name, deps_.formula(name)); }

expr::Value SampleScope::memoised(std::string_view name, const expr::Expression& formula) const {
  auto it = memo_.find(name);
  if (it == memo_.end()) {
    if (deps_.uses_fallback(name)) approximate_.emplace(name);
    // An exception ends the whole evaluation with this scope, so the stack
    // needs no unwinding on the way out.
    evaluating_.emplace_back(name);
    const expr::Value value = formula.evaluate(*this);
    evaluating_.pop_back();
    it = memo_.emplace(std::string(name), value).first;
  }
  // Whatever is being computed from an approximate value is approximate too.
  if (approximate_.count(name)) approximate_.insert(evaluating_.begin(), evaluating_.end());
  return it->second;
}

bool SampleScope::is_over(std::string_view name) const {
  if (auto it = verdicts_.find(name); it != verdicts_.end()) return it->second;
  bool over = false;
  const expr::Value value = node_value(name);
  if (const expr::Expression* threshold = deps_.threshold(name); threshold && value) {
    // Only a threshold that asks may wait on the parent's verdict: Retiring
    // asks for Heavy_Operations' verdict, which must not ask for Retiring's.
    const model::Node* node = deps_.model().find(name);
    const bool parent_over = node && !node->parent.empty() && deps_.asks_parent(name) && is_over(node->parent);
    const expr::Value holds = threshold->evaluate(ThresholdScope(*this, *value, parent_over));
    over = holds && *holds != 0;
  }
  verdicts_.emplace(std::string(name), over);
  return over;
}

}  // namespace topdown::eval
