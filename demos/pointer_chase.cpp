#include <memory>

#include "kernels.h"

namespace topdown::demo {
namespace {

// One node per cache line, so each step is a new line.
struct alignas(64) Node {
  Node* next;
};
static_assert(sizeof(Node) == 64);

constexpr uint64_t kBufferBytes = 256ull << 20;  // far beyond any last-level cache
constexpr uint64_t kNodes = kBufferBytes / sizeof(Node);

}  // namespace

// Every load's address comes from the previous load, and the cycle visits the
// whole buffer in random order: no prefetcher or cache helps, so the core
// waits on DRAM latency (Backend_Bound / Memory_Bound).
uint64_t chase_pointers(uint64_t steps) {
  auto nodes = std::make_unique<Node[]>(kNodes);
  // Sattolo's algorithm: a random permutation that is one single cycle.
  auto order = std::make_unique<uint32_t[]>(kNodes);
  for (uint64_t i = 0; i < kNodes; ++i) order[i] = static_cast<uint32_t>(i);
  SplitMix64 random(0x70696e746572ull);
  for (uint64_t i = kNodes - 1; i > 0; --i) {
    const uint64_t j = random.below(i);
    const uint32_t swapped = order[i];
    order[i] = order[j];
    order[j] = swapped;
  }
  for (uint64_t i = 0; i < kNodes; ++i) nodes[i].next = &nodes[order[i]];
  order.reset();

  const Node* at = &nodes[0];
  for (uint64_t i = 0; i < steps; ++i) at = at->next;
  return static_cast<uint64_t>(at - nodes.get());
}

}  // namespace topdown::demo
