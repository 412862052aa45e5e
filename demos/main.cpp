// topdown-demo KERNEL [--iterations N]: runs one workload with a known
// bottleneck and prints its checksum.
#include <array>
#include <charconv>
#include <cstdio>
#include <string>
#include <string_view>

#include "kernels.h"

namespace {

using topdown::demo::Kernel;

constexpr std::array<Kernel, 5> kKernels{{
    {"pointer-chase", "chase pointers through a random 256 MiB cycle (memory latency bound)", 3'000'000,
     topdown::demo::chase_pointers},
    {"branchy", "branch on random bytes (branch mispredictions)", 150'000'000, topdown::demo::branch_on_random_bytes},
    {"alu", "independent add/xor/shift chains in registers (high IPC, retiring)", 300'000'000,
     topdown::demo::alu_chains},
    {"faults-and-compute",
     "page faults in fault_pages (1/4 of the CPU time), arithmetic in compute_only (3/4): a profile's two functions",
     10, topdown::demo::faults_and_compute},
    {"mostly-faults",
     "the same two functions split the other way: fault_pages 3/4 of the CPU time, compute_only 1/4 (compare it "
     "with faults-and-compute)",
     10, topdown::demo::mostly_faults},
}};

constexpr std::string_view kUsage =
    "usage: topdown-demo KERNEL [--iterations N]; 'topdown-demo list' shows the kernels";

int fail(const std::string& message) {
  std::fprintf(stderr, "topdown-demo: %s\n", message.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return fail(std::string(kUsage));
  const std::string_view name = argv[1];
  if (name == "list") {
    for (const Kernel& kernel : kKernels) {
      std::printf("%-18.*s %.*s\n", static_cast<int>(kernel.name.size()), kernel.name.data(),
                  static_cast<int>(kernel.description.size()), kernel.description.data());
    }
    return 0;
  }
  const Kernel* chosen = nullptr;
  for (const Kernel& kernel : kKernels) {
    if (kernel.name == name) chosen = &kernel;
  }
  if (chosen == nullptr) {
    return fail("unknown kernel '" + std::string(name) + "'; 'topdown-demo list' shows the kernels");
  }

  uint64_t iterations = chosen->default_iterations;
  if (argc == 4 && std::string_view(argv[2]) == "--iterations") {
    const std::string_view count = argv[3];
    const auto [end, error] = std::from_chars(count.data(), count.data() + count.size(), iterations);
    if (error != std::errc() || end != count.data() + count.size() || iterations == 0) {
      return fail("--iterations wants a positive whole number, not '" + std::string(count) + "'");
    }
  } else if (argc != 2) {
    return fail(std::string(kUsage));
  }

  const uint64_t checksum = chosen->run(iterations);
  std::printf("%.*s: %llu iterations, checksum %llu\n", static_cast<int>(chosen->name.size()), chosen->name.data(),
              static_cast<unsigned long long>(iterations), static_cast<unsigned long long>(checksum));
  return 0;
}
