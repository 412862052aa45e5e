// Symbolization speed on this process's own code (the benchmark binary,
// libstdc++, libc, libbenchmark), fed its /proc/self/maps as a recording's
// mappings: resolves per second of addresses already seen (a hash lookup),
// of distinct addresses seen for the first time (libdwfl symbol and DWARF
// lookups), and the time to resolve one million samples as a report would,
// from a fresh Symbolizer: the time `topdown report` spends on symbols.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "symbols/self_maps.h"
#include "symbols/symbolizer.h"

namespace {

using topdown::symbols::Symbolizer;

constexpr uint32_t kPid = 1234;

using CodeMapping = topdown::symbols::testing::SelfMapping;
using topdown::symbols::testing::self_mappings;

Symbolizer mapped_symbolizer(const std::vector<CodeMapping>& mappings) {
  Symbolizer symbolizer;
  for (const CodeMapping& m : mappings) {
    symbolizer.map(kPid, m.start, m.end - m.start, m.file_offset, m.path, "");
  }
  return symbolizer;
}

// `count` addresses spread evenly over the executable file mappings.
std::vector<uint64_t> code_addresses(const std::vector<CodeMapping>& mappings, size_t count) {
  uint64_t total = 0;
  for (const CodeMapping& m : mappings) {
    if (m.executable && m.path.front() == '/') {
      total += m.end - m.start;
    }
  }
  std::vector<uint64_t> addresses;
  uint64_t stride = std::max<uint64_t>(1, total / count);
  for (const CodeMapping& m : mappings) {
    if (m.executable && m.path.front() == '/') {
      for (uint64_t address = m.start; address < m.end && addresses.size() < count; address += stride) {
        addresses.push_back(address);
      }
    }
  }
  return addresses;
}

void BM_RepeatedAddresses(benchmark::State& state) {
  auto mappings = self_mappings();
  Symbolizer symbolizer = mapped_symbolizer(mappings);
  auto addresses = code_addresses(mappings, 1000);
  for (uint64_t address : addresses) {
    symbolizer.resolve(kPid, address, false);
  }
  size_t next = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(&symbolizer.resolve(kPid, addresses[next], false));
    next = next + 1 == addresses.size() ? 0 : next + 1;
  }
  state.counters["resolves_per_second"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RepeatedAddresses);

// Every address new to the Symbolizer; the files are opened before timing.
void BM_DistinctAddresses(benchmark::State& state) {
  auto mappings = self_mappings();
  auto addresses = code_addresses(mappings, static_cast<size_t>(state.range(0)));
  int64_t resolved = 0;
  for (auto _ : state) {
    state.PauseTiming();
    Symbolizer symbolizer = mapped_symbolizer(mappings);
    for (const CodeMapping& m : mappings) {
      if (m.executable) {
        symbolizer.resolve(kPid, m.end - 1, false);
      }
    }
    state.ResumeTiming();
    for (uint64_t address : addresses) {
      benchmark::DoNotOptimize(&symbolizer.resolve(kPid, address, false));
    }
    resolved += static_cast<int64_t>(addresses.size());
  }
  state.counters["resolves_per_second"] =
      benchmark::Counter(static_cast<double>(resolved), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_DistinctAddresses)->Arg(20000)->Unit(benchmark::kMillisecond);

// One million samples over 10,000 distinct addresses, most in a few hot
// ones (a geometric spread), from a fresh Symbolizer that opens every file.
void BM_MillionSamples(benchmark::State& state) {
  auto mappings = self_mappings();
  auto distinct = code_addresses(mappings, 10000);
  std::mt19937_64 random(13);
  std::geometric_distribution<size_t> hotness(0.002);
  std::vector<uint64_t> samples(1'000'000);
  for (uint64_t& sample : samples) {
    sample = distinct[hotness(random) % distinct.size()];
  }
  for (auto _ : state) {
    Symbolizer symbolizer = mapped_symbolizer(mappings);
    for (uint64_t sample : samples) {
      benchmark::DoNotOptimize(&symbolizer.resolve(kPid, sample, false));
    }
  }
  state.counters["resolves_per_second"] = benchmark::Counter(
      static_cast<double>(samples.size()) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MillionSamples)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
