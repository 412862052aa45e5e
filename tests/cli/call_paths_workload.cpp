// A program of known call structure for the call stack tests: main calls
// leaf through outer_a for one third of the work and through outer_b for
// two thirds; neither caller does work of its own. Built with frame
// pointers in every function and without inlining (tests/cli/CMakeLists.txt).
#include <cstdint>
#include <cstdlib>

namespace {

constexpr uint64_t kIterations = 25'000'000;  // about 0.1 s of a core per call of outer_a (-O0)

}  // namespace

__attribute__((noinline)) uint64_t leaf(uint64_t iterations) {
  uint64_t value = 1;
  for (uint64_t i = 0; i < iterations; ++i) {
    value = value * 31 + i;
    asm volatile("" : "+r"(value));
  }
  return value;
}

__attribute__((noinline)) uint64_t outer_a(uint64_t iterations) { return leaf(iterations) + 1; }

__attribute__((noinline)) uint64_t outer_b(uint64_t iterations) { return leaf(2 * iterations) + 2; }

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 4;
  uint64_t sum = 0;
  for (int round = 0; round < rounds; ++round) {
    sum += outer_a(kIterations);
    sum += outer_b(kIterations);
  }
  return sum == 0 ? 1 : 0;  // the sum is used, so the work stays; it is never 0
}
