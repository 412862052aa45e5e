#include "fixture_library.h"

namespace fixture {

const int kMixStepFirstLine = __LINE__ + 1;
[[gnu::always_inline]] inline int mix_step(int value) {
  int mixed = value * 2654435761u > 0x80000000u ? value ^ 0x5bd1e995 : value + 0x27d4eb2d;
  return (mixed << 7) ^ (mixed >> 3);
}
const int kMixStepLastLine = __LINE__ - 1;

int Widget::compute(int n) const {
  int total = 0;
  for (int i = 0; i < n; ++i) {
    total += mix_step(i * n + total);
  }
  return total;
}

[[gnu::visibility("hidden"), gnu::noinline]] int hidden_function(int value) { return value * 3 + 1; }

uintptr_t hidden_function_address() { return reinterpret_cast<uintptr_t>(&hidden_function); }

}  // namespace fixture
