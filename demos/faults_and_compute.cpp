#include <sys/mman.h>

#include <cstddef>
#include <ctime>

#include "kernels.h"

namespace topdown::demo {
namespace {

constexpr std::size_t kPageBytes = 4096;
constexpr std::size_t kRegionPages = 256;  // 1 MiB mapped, touched and unmapped per round

}  // namespace

// Every write is a page fault (the kernel zeroes a page); the region is
// unmapped so that the next round faults again.
__attribute__((noinline)) uint64_t fault_pages(uint64_t rounds) {
  uint64_t sum = 0;
  for (uint64_t round = 0; round < rounds; ++round) {
    void* region =
        ::mmap(nullptr, kRegionPages * kPageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (region == MAP_FAILED) return sum;
    auto* bytes = static_cast<volatile unsigned char*>(region);
    for (std::size_t page = 0; page < kRegionPages; ++page) bytes[page * kPageBytes] = static_cast<unsigned char>(page);
    sum += bytes[(round % kRegionPages) * kPageBytes];
    ::munmap(region, kRegionPages * kPageBytes);
  }
  return sum;
}

__attribute__((noinline)) uint64_t compute_only(uint64_t iterations) {
  uint64_t a = 1, b = 2;
  for (uint64_t i = 0; i < iterations; ++i) {
    a = (a + 0x9e37) ^ (b >> 3);
    b = (b + 0x7f4a) ^ (a >> 5);
    asm volatile("" : "+r"(a), "+r"(b));
  }
  return a ^ b;
}

namespace {

double thread_cpu_seconds() {
  timespec now{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

constexpr uint64_t kFaultRounds = 4;  // per slice
constexpr uint64_t kTrialIterations = 1'000'000;

// compute_only's iterations per slice that take three times as long as
// kFaultRounds of fault_pages on this machine: page faults cost ten times
// more in one VM than on another core, so the ratio is measured (CPU time
// of the thread, the kernel's included) rather than assumed.
uint64_t compute_iterations_per_slice(uint64_t& checksum) {
  const double before_faults = thread_cpu_seconds();
  checksum += fault_pages(kFaultRounds);
  const double faults = thread_cpu_seconds() - before_faults;
  const double before_compute = thread_cpu_seconds();
  checksum ^= compute_only(kTrialIterations);
  const double compute = thread_cpu_seconds() - before_compute;
  if (faults <= 0 || compute <= 0) return 3 * kTrialIterations;
  return static_cast<uint64_t>(3 * faults / compute * static_cast<double>(kTrialIterations)) + 1;
}

}  // namespace

// Alternates the two in slices, so that any stretch of the run shows both:
// fault_pages a quarter of the CPU time, compute_only three quarters.
uint64_t faults_and_compute(uint64_t slices) {
  uint64_t checksum = 0;
  const uint64_t iterations = compute_iterations_per_slice(checksum);
  for (uint64_t slice = 0; slice < slices; ++slice) {
    checksum += fault_pages(kFaultRounds);
    checksum ^= compute_only(iterations);
  }
  return checksum;
}

}  // namespace topdown::demo
