#pragma once
// The functions on each sample's call stack, inlined functions as frames of
// their own: what --children, --callers and the flame graph walk.
#include <cstdint>
#include <vector>

#include "profile/attribute.h"
#include "recording/recording.h"

namespace topdown::profile {

class StackFunctions {
 public:
  explicit StackFunctions(const recording::Recording& recording);

  // The functions on the stack of `sample`, innermost first (its own
  // function alone when it has no stack).
  void of(const recording::Sample& sample, std::vector<uint32_t>& functions) const;

  const std::vector<FunctionName>& names() const { return names_.all(); }
  // The function of frames without a name ("[unknown]").
  uint32_t unknown() const { return unknown_; }

 private:
  const recording::Recording& recording_;
  FunctionNames names_;
  std::vector<std::vector<uint32_t>> of_symbol_;  // the symbol's inlined functions, then its own
  uint32_t unknown_ = 0;
};

}  // namespace topdown::profile
