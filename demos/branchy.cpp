#include <vector>

#include "kernels.h"

namespace topdown::demo {

// A branch on random data is right only half the time, whatever the
// predictor does (Bad_Speculation / Branch_Mispredicts). The bytes fit in L2
// so memory does not get in the way.
uint64_t branch_on_random_bytes(uint64_t bytes) {
  constexpr size_t kPatternBytes = 64 * 1024;  // far more outcomes than any predictor can learn
  std::vector<uint8_t> pattern(kPatternBytes);
  SplitMix64 random(0x6272616e6368ull);
  for (uint8_t& byte : pattern) byte = static_cast<uint8_t>(random.next());

  uint64_t taken = 0;
  uint64_t not_taken = 0;
  for (uint64_t i = 0; i < bytes; ++i) {
    const uint8_t byte = pattern[i % kPatternBytes];
    if (byte < 128) {
      // The empty volatile asm cannot be executed speculatively, so the
      // compiler must keep a real branch instead of a conditional move.
      asm volatile("" : "+r"(taken));
      taken += byte;
    } else {
      not_taken ^= byte;
    }
  }
  return taken * 31 + not_taken;
}

}  // namespace topdown::demo
