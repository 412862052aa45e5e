#pragma once
// Resolves formula identifiers against one sample of counts; private to eval.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "counts/counts.h"
#include "expr/expression.h"
#include "model/dependencies.h"

namespace topdown::eval {

class SampleScope final : public expr::Scope {
 public:
  // With a `group` (1-based), an event is read from that group's copy
  // (counts::group_copy_name) where the sample has one.
  SampleScope(const model::Dependencies& deps, const counts::Sample& sample, const model::RunVariables& vars,
              int group = 0)
      : deps_(deps), sample_(sample), vars_(vars), group_(group) {}

  expr::Value lookup(std::string_view name) const override;

  // The count an event is read from; nullptr when it was not counted.
  const counts::Count* count_of(std::string_view event) const;

  // A node's value (memoised: nodes refer to each other a lot).
  expr::Value node_value(std::string_view name) const;

  // Whether the node's value came from a fallback formula, its own or one of
  // a node it uses (known once node_value(name) has been asked).
  bool is_approximate(std::string_view name) const { return approximate_.count(name) > 0; }

  // Whether the node is over its threshold (memoised): its threshold with
  // `this`, `parent_over` and over(NODE) bound. False without a threshold or
  // a value.
  bool is_over(std::string_view name) const;

 private:
  expr::Value memoised(std::string_view name, const expr::Expression& formula) const;

  const model::Dependencies& deps_;
  const counts::Sample& sample_;
  const model::RunVariables& vars_;
  int group_;
  mutable std::map<std::string, expr::Value, std::less<>> memo_;
  mutable std::set<std::string, std::less<>> approximate_;
  mutable std::vector<std::string> evaluating_;  // the nodes and definitions being computed, outermost first
  mutable std::map<std::string, bool, std::less<>> verdicts_;
};

}  // namespace topdown::eval
