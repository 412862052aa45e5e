#pragma once
// Small workloads, each built to stress one corner of the TMA tree, so that
// topdown's output can be checked against what the code obviously does.
#include <cstdint>
#include <string_view>

namespace topdown::demo {

struct Kernel {
  std::string_view name;
  std::string_view description;
  uint64_t default_iterations;           // about half a second to a second on a current core
  uint64_t (*run)(uint64_t iterations);  // returns a checksum that depends on all the work
};

uint64_t chase_pointers(uint64_t steps);
uint64_t branch_on_random_bytes(uint64_t bytes);
uint64_t alu_chains(uint64_t iterations);
// Calls fault_pages (mmap, touch every page, munmap: page faults) about a
// quarter of the time and compute_only (registers only) the other three
// quarters, both noinline, so that a profile can check each one's share.
uint64_t faults_and_compute(uint64_t slices);
// The same two functions with the split turned round: fault_pages three
// quarters of the time, compute_only one quarter (compare's A and B).
uint64_t mostly_faults(uint64_t slices);
// Its two functions, by the names a profile shows:
// topdown::demo::fault_pages maps 1 MiB, writes a byte per page and unmaps
// it, `rounds` times (nearly all its time is page faults, in the kernel);
// topdown::demo::compute_only does register arithmetic only.
uint64_t fault_pages(uint64_t rounds);
uint64_t compute_only(uint64_t iterations);

// A fixed-seed generator of our own, so every run (and every libstdc++) does
// exactly the same work and retires the same instructions.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform enough in [0, bound) for bound far below 2^64.
  uint64_t below(uint64_t bound) { return next() % bound; }

 private:
  uint64_t state_;
};

}  // namespace topdown::demo
