// What one begin+end of a region costs, beside the raw ways to read the same
// counters in the same run: two read() of the group, two rdpmc sweeps of its
// mmap pages, two PAPI_read of the same events. BM_RegionOverhead puts the
// library next to the cheaper raw path and reports the ratio (the goal: at
// most 1.05). Each runs on this CPU's counters ("cpu") and, where it
// applies, on the kernel's software events of tests/data/software.model
// ("software"), which count on every machine: the library's cost over a raw
// read() of the same group is measured even without a PMU. Paths that cannot
// count on this machine are skipped with the reason.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>

#include "region/mmap_read.h"
#include "region/open_session.h"
#include "region/readers.h"
#include "region/session_impl.h"

#ifdef TOPDOWN_HAVE_PAPI
#include <papi.h>
#endif

namespace topdown::region {
namespace {

// What a benchmark counts: this CPU's model (or PERF_METRICS), or software events.
enum class Counters { Cpu, Software };

Options options_for(Counters counters, int level) {
  Options options;
  options.level = level;
  if (counters == Counters::Software) options.model_file = TOPDOWN_SOURCE_DIR "/tests/data/software.model";
  return options;
}

// The counters of `level`, open on this thread, or why they cannot be.
std::optional<OpenCounters> open_or_skip(benchmark::State& state, Counters counters, int level) {
  try {
    return open_counters(options_for(counters, level));
  } catch (const Error& error) {
    state.SkipWithError(error.what());
  }
  return std::nullopt;
}

std::optional<Session> session_or_skip(benchmark::State& state, OpenCounters counters, Reader reader) {
  if (reader == Reader::Rdpmc && !counters.rdpmc_reader) {
    state.SkipWithError(
        "rdpmc cannot read these counters here (not allowed by the kernel, or the group is off the PMU)");
    return std::nullopt;
  }
  SessionInfo info;
  info.reader = reader;
  return Session::Impl::wrap(start_session(std::move(counters), info));
}

// The raw ways to take the readings one region needs (two), on one group.
struct RawGroup {
  const perf::Group* group;
  std::size_t count;
  bool perf_metrics;
};

RawGroup raw_view(const OpenCounters& counters) {
  return {counters.group.get(), counters.counting.attrs.size(), counters.counting.perf_metrics};
}

void raw_read(const RawGroup& raw) {
  // perf::kReadGroup: nr, both times, then a value and an id per event.
  uint64_t words[3 + 2 * kMaxValues];
  const std::size_t bytes = (3 + 2 * raw.count) * sizeof(uint64_t);
  benchmark::DoNotOptimize(::read(raw.group->leader(), words, bytes));
  benchmark::DoNotOptimize(::read(raw.group->leader(), words, bytes));
  benchmark::ClobberMemory();
}

uint64_t no_tsc() { return 0; }

void raw_rdpmc(const RawGroup& raw) {
  for (int reading = 0; reading < 2; ++reading) {
    benchmark::DoNotOptimize(read_page(*raw.group->page(0), rdpmc, read_tsc));
    if (raw.perf_metrics) {
      benchmark::DoNotOptimize(rdpmc(metrics::kRdpmcMetrics));
      continue;
    }
    for (std::size_t i = 1; i < raw.count; ++i) benchmark::DoNotOptimize(read_page(*raw.group->page(i), rdpmc, no_tsc));
  }
}

constexpr int kRdpmc = static_cast<int>(Reader::Rdpmc);
constexpr int kRead = static_cast<int>(Reader::Read);

void BM_RegionBeginEnd(benchmark::State& state, Counters what) {
  const auto reader = static_cast<Reader>(state.range(1));
  std::optional<OpenCounters> counters = open_or_skip(state, what, static_cast<int>(state.range(0)));
  if (!counters) return;
  std::optional<Session> session = session_or_skip(state, std::move(*counters), reader);
  if (!session) return;
  const RegionId id = session->region("bench");
  for (auto _ : state) {
    session->begin(id);
    session->end();
  }
}
BENCHMARK_CAPTURE(BM_RegionBeginEnd, cpu, Counters::Cpu)
    ->ArgsProduct({{1, 2}, {kRdpmc, kRead}})
    ->ArgNames({"level", "rdpmc0_read1"});
BENCHMARK_CAPTURE(BM_RegionBeginEnd, software, Counters::Software)
    ->Args({1, kRead})
    ->ArgNames({"level", "rdpmc0_read1"});

void BM_RawGroupRead(benchmark::State& state, Counters what) {
  std::optional<OpenCounters> counters = open_or_skip(state, what, static_cast<int>(state.range(0)));
  if (!counters) return;
  for (auto _ : state) raw_read(raw_view(*counters));
}
BENCHMARK_CAPTURE(BM_RawGroupRead, cpu, Counters::Cpu)->Arg(1)->Arg(2)->ArgName("level");
BENCHMARK_CAPTURE(BM_RawGroupRead, software, Counters::Software)->Arg(1)->ArgName("level");

void BM_RawRdpmc(benchmark::State& state) {
  std::optional<OpenCounters> counters = open_or_skip(state, Counters::Cpu, static_cast<int>(state.range(0)));
  if (!counters) return;
  if (!counters->rdpmc_reader) {
    state.SkipWithError(
        "rdpmc cannot read these counters here (not allowed by the kernel, or the group is off the PMU)");
    return;
  }
  for (auto _ : state) raw_rdpmc(raw_view(*counters));
}
BENCHMARK(BM_RawRdpmc)->Arg(1)->Arg(2)->ArgName("level");

void BM_PapiRead(benchmark::State& state) {
#ifdef TOPDOWN_HAVE_PAPI
  std::optional<OpenCounters> counters = open_or_skip(state, Counters::Cpu, static_cast<int>(state.range(0)));
  if (!counters) return;
  // The same events, in PAPI's spelling of perf's raw encodings; the session's
  // group is closed first so that both do not compete for the counters.
  std::vector<std::string> names;
  for (const perf::Event& event : counters->counting.events) {
    char name[64];
    std::snprintf(name, sizeof name, "perf_raw::r%llx", static_cast<unsigned long long>(event.config));
    names.emplace_back(name);
  }
  counters.reset();
  if (PAPI_is_initialized() == PAPI_NOT_INITED && PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
    state.SkipWithError("PAPI_library_init failed");
    return;
  }
  int set = PAPI_NULL;
  int status = PAPI_create_eventset(&set);
  for (std::size_t i = 0; status == PAPI_OK && i < names.size(); ++i) {
    status = PAPI_add_named_event(set, names[i].c_str());
  }
  if (status == PAPI_OK) status = PAPI_start(set);
  if (status != PAPI_OK) {
    state.SkipWithError(("PAPI cannot count these events here: " + std::string(PAPI_strerror(status))).c_str());
    if (set != PAPI_NULL) {
      PAPI_cleanup_eventset(set);
      PAPI_destroy_eventset(&set);
    }
    return;
  }
  long long values[kMaxValues] = {};
  for (auto _ : state) {
    PAPI_read(set, values);
    PAPI_read(set, values);
    benchmark::DoNotOptimize(values);
  }
  PAPI_stop(set, values);
  PAPI_cleanup_eventset(set);
  PAPI_destroy_eventset(&set);
#else
  state.SkipWithError("built without PAPI (libpapi-dev)");
#endif
}
BENCHMARK(BM_PapiRead)->Arg(1)->Arg(2)->ArgName("level");

// Nanoseconds per call of `action`: the best of several batches.
double best_ns(const std::function<void()>& action) {
  constexpr int kBatches = 20;
  constexpr int kCalls = 2000;
  double best = 0;
  for (int batch = 0; batch < kBatches; ++batch) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kCalls; ++i) action();
    const std::chrono::duration<double, std::nano> spent = std::chrono::steady_clock::now() - start;
    const double per_call = spent.count() / kCalls;
    if (batch == 0 || per_call < best) best = per_call;
  }
  return best;
}

// The library's begin+end over the cheaper raw path, on the same group.
void BM_RegionOverhead(benchmark::State& state, Counters what) {
  std::optional<OpenCounters> counters = open_or_skip(state, what, static_cast<int>(state.range(0)));
  if (!counters) return;
  // The session takes the group over; the raw paths keep reading it.
  const std::shared_ptr<perf::Group> group = counters->group;
  const RawGroup raw = raw_view(*counters);
  const double read_ns = best_ns([&] { raw_read(raw); });
  const std::optional<double> rdpmc_ns =
      counters->rdpmc_reader ? std::optional<double>(best_ns([&] { raw_rdpmc(raw); })) : std::nullopt;
  const Reader cheaper = rdpmc_ns && *rdpmc_ns < read_ns ? Reader::Rdpmc : Reader::Read;
  std::optional<Session> session = session_or_skip(state, std::move(*counters), cheaper);
  if (!session) return;
  const RegionId id = session->region("bench");
  double library = 0;
  double baseline = 0;
  for (auto _ : state) {
    library = best_ns([&] {
      session->begin(id);
      session->end();
    });
    baseline = cheaper == Reader::Rdpmc ? best_ns([&] { raw_rdpmc(raw); }) : best_ns([&] { raw_read(raw); });
  }
  state.counters["library_ns"] = library;
  state.counters["raw_ns"] = baseline;
  state.counters["raw_is_rdpmc"] = cheaper == Reader::Rdpmc ? 1 : 0;
  state.counters["overhead_ratio"] = library / baseline;
  state.counters["within_5pct"] = library <= 1.05 * baseline ? 1 : 0;
}
BENCHMARK_CAPTURE(BM_RegionOverhead, cpu, Counters::Cpu)->Arg(1)->Arg(2)->ArgName("level")->Iterations(3);
BENCHMARK_CAPTURE(BM_RegionOverhead, software, Counters::Software)->Arg(1)->ArgName("level")->Iterations(3);

}  // namespace
}  // namespace topdown::region

BENCHMARK_MAIN();
