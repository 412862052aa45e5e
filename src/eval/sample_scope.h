#pragma once
// Resolves formula identifiers against one sample of counts; private to eval.
#include <map>
#include <string>

#include "counts/counts.h"
#include "expr/expression.h"
#include "model/dependencies.h"

namespace topdown::eval {

class SampleScope final : public expr::Scope {
 public:
  SampleScope(const model::Dependencies& deps, const counts::Sample& sample, const model::RunVariables& vars)
      : deps_(deps), sample_(sample), vars_(vars) {}

  expr::Value lookup(std::string_view name) const override;

  // A node's value (memoised: nodes refer to each other a lot).
  expr::Value node_value(std::string_view name) const;

  // Whether the node is over its threshold (memoised): its threshold with
  // `this`, `parent_over` and over(NODE) bound. False without a threshold or
  // a value.
  bool is_over(std::string_view name) const;

 private:
  expr::Value memoised(std::string_view name, const expr::Expression& formula) const;

  const model::Dependencies& deps_;
  const counts::Sample& sample_;
  const model::RunVariables& vars_;
  mutable std::map<std::string, expr::Value, std::less<>> memo_;
  mutable std::map<std::string, bool, std::less<>> verdicts_;
};

}  // namespace topdown::eval
