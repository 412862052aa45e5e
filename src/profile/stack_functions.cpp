#include "profile/stack_functions.h"

namespace topdown::profile {

StackFunctions::StackFunctions(const recording::Recording& recording) : recording_(recording) {
  for (const recording::NamedSymbol& symbol : recording.symbols) {
    std::vector<uint32_t> functions;
    for (const std::string& inlined : symbol.inline_chain) functions.push_back(names_.index(inlined, symbol.module));
    functions.push_back(names_.index(symbol.function, symbol.module));
    of_symbol_.push_back(std::move(functions));
  }
  unknown_ = names_.index("[unknown]", "[unknown]");
}

void StackFunctions::of(const recording::Sample& sample, std::vector<uint32_t>& functions) const {
  functions.clear();
  const uint32_t frames = sample.kernel_frames + sample.user_frames;
  if (frames == 0) {
    functions.push_back(sample.symbol < of_symbol_.size() ? of_symbol_[sample.symbol].back() : unknown_);
    return;
  }
  for (uint32_t i = sample.first_frame; i < sample.first_frame + frames; ++i) {
    const uint32_t symbol = recording_.frames.symbols[i];
    if (symbol >= of_symbol_.size()) {
      functions.push_back(unknown_);
    } else {
      functions.insert(functions.end(), of_symbol_[symbol].begin(), of_symbol_[symbol].end());
    }
  }
}

}  // namespace topdown::profile
