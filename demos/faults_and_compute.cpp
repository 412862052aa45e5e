#include <sys/mman.h>
#include <sys/syscall.h>

#include <cstddef>
#include <cstdio>
#include <ctime>

#include "kernels.h"

namespace topdown::demo {
namespace {

constexpr std::size_t kPageBytes = 4096;
constexpr std::size_t kRegionPages = 256;  // 1 MiB mapped, touched and unmapped per round

}  // namespace

// The system calls are made here rather than through libc's wrappers, so
// that the kernel time of mapping and unmapping is this function's own in a
// profile (which charges kernel time to the user address that entered it).
long inline_syscall(long number, long a1, long a2, long a3 = 0, long a4 = 0, long a5 = 0, long a6 = 0) {
#if defined(__x86_64__)
  long result = 0;
  register long r10 asm("r10") = a4;
  register long r8 asm("r8") = a5;
  register long r9 asm("r9") = a6;
  asm volatile("syscall"
               : "=a"(result)
               : "a"(number), "D"(a1), "S"(a2), "d"(a3), "r"(r10), "r"(r8), "r"(r9)
               : "rcx", "r11", "memory");
  return result;
#elif defined(__aarch64__)
  register long x8 asm("x8") = number;
  register long x0 asm("x0") = a1;
  register long x1 asm("x1") = a2;
  register long x2 asm("x2") = a3;
  register long x3 asm("x3") = a4;
  register long x4 asm("x4") = a5;
  register long x5 asm("x5") = a6;
  asm volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5) : "memory");
  return x0;
#else
#error "inline_syscall: no system call sequence for this architecture"
#endif
}

// Every write is a page fault (the kernel zeroes a page); the region is
// unmapped so that the next round faults again.
__attribute__((noinline)) uint64_t fault_pages(uint64_t rounds) {
  uint64_t sum = 0;
  for (uint64_t round = 0; round < rounds; ++round) {
    constexpr long kBytes = kRegionPages * kPageBytes;
    const long mapped = inline_syscall(SYS_mmap, 0, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped < 0 && mapped > -4096) return sum;  // -errno
    void* region = reinterpret_cast<void*>(mapped);
    auto* bytes = static_cast<volatile unsigned char*>(region);
    for (std::size_t page = 0; page < kRegionPages; ++page) bytes[page * kPageBytes] = static_cast<unsigned char>(page);
    sum += bytes[(round % kRegionPages) * kPageBytes];
    inline_syscall(SYS_munmap, mapped, kBytes);
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

// Per slice: slices of about 60 ms, so that the few page faults a sample
// taken after the switch to compute_only is charged with are few.
constexpr uint64_t kFaultRounds = 40;
constexpr uint64_t kTrialIterations = 1'000'000;

// The thread CPU time (the kernel's included) each function has taken.
struct CpuSeconds {
  double faults = 0;
  double compute = 0;
};

uint64_t timed_fault_pages(uint64_t rounds, CpuSeconds& spent) {
  const double start = thread_cpu_seconds();
  const uint64_t sum = fault_pages(rounds);
  spent.faults += thread_cpu_seconds() - start;
  return sum;
}

uint64_t timed_compute_only(uint64_t iterations, CpuSeconds& spent) {
  const double start = thread_cpu_seconds();
  const uint64_t result = compute_only(iterations);
  spent.compute += thread_cpu_seconds() - start;
  return result;
}

// compute_only's iterations per slice that take `compute_per_fault` times
// as long as kFaultRounds of fault_pages on this machine: page faults cost
// ten times more in one VM than on another core, so the ratio is measured
// rather than assumed.
uint64_t compute_iterations_per_slice(double compute_per_fault, uint64_t& checksum, CpuSeconds& spent) {
  const CpuSeconds before = spent;
  checksum += timed_fault_pages(kFaultRounds, spent);
  checksum ^= timed_compute_only(kTrialIterations, spent);
  const double faults = spent.faults - before.faults;
  const double compute = spent.compute - before.compute;
  if (faults <= 0 || compute <= 0) return static_cast<uint64_t>(compute_per_fault * kTrialIterations) + 1;
  return static_cast<uint64_t>(compute_per_fault * faults / compute * static_cast<double>(kTrialIterations)) + 1;
}

// Alternates the two in slices, so that any stretch of the run shows both,
// compute_only taking `compute_per_fault` times fault_pages's CPU time. The
// share each really took is printed, because on a busy machine a page fault
// can cost twice what it did during calibration: a profile is checked
// against that line, not against the split aimed at.
uint64_t split_faults_and_compute(uint64_t slices, double compute_per_fault) {
  uint64_t checksum = 0;
  CpuSeconds spent;
  const uint64_t iterations = compute_iterations_per_slice(compute_per_fault, checksum, spent);
  for (uint64_t slice = 0; slice < slices; ++slice) {
    checksum += timed_fault_pages(kFaultRounds, spent);
    checksum ^= timed_compute_only(iterations, spent);
  }
  const double total = spent.faults + spent.compute;
  if (total > 0) {
    std::printf("fault_pages %.4f compute_only %.4f (shares of their CPU time)\n", spent.faults / total,
                spent.compute / total);
  }
  return checksum;
}

}  // namespace

uint64_t faults_and_compute(uint64_t slices) { return split_faults_and_compute(slices, 3); }

uint64_t mostly_faults(uint64_t slices) { return split_faults_and_compute(slices, 1.0 / 3); }

}  // namespace topdown::demo
