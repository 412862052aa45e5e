#include <chrono>

#include "perf/open_failure.h"
#include "region/open_error.h"
#include "region/open_session.h"
#include "region/readers.h"

namespace topdown::region {
namespace {

// Nanoseconds per reading: the best of a few batches, after a warm-up, so a
// single interruption does not decide. nullopt when a reading fails.
std::optional<double> time_reader(CounterReader& reader) {
  constexpr int kWarmUp = 8;
  constexpr int kBatches = 4;
  constexpr int kReadsPerBatch = 16;
  Snapshot snapshot;
  for (int i = 0; i < kWarmUp; ++i) {
    reader.read(snapshot);
    if (!snapshot.valid) return std::nullopt;
  }
  double best = 0;
  for (int batch = 0; batch < kBatches; ++batch) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kReadsPerBatch; ++i) reader.read(snapshot);
    const std::chrono::duration<double, std::nano> spent = std::chrono::steady_clock::now() - start;
    if (!snapshot.valid) return std::nullopt;
    const double per_read = spent.count() / kReadsPerBatch;
    if (batch == 0 || per_read < best) best = per_read;
  }
  return best;
}

// The group of `counting` on the calling thread, not yet enabled.
std::shared_ptr<perf::Group> open_group(const Counting& counting, const std::string& paranoid) {
  auto group = std::make_shared<perf::Group>();
  for (std::size_t i = 0; i < counting.attrs.size(); ++i) {
    if (const int err = group->add(counting.attrs[i])) throw open_error(err, counting.events[i], paranoid);
  }
  return group;
}

}  // namespace

OpenCounters open_counters(const Options& options) {
  check_options(options);
  const cpu::CpuInfo cpu = cpu::detect();
  // A model file may count what needs no PMU: the kernel's software events.
  if (options.model_file.empty() && !perf::pmu_available()) throw no_pmu_error(cpu.perf_event_paranoid);
  OpenCounters counters;
  counters.counting = plan_counting(cpu, metrics::detect(perf::kSysfsDevices), options);
  const Counting& counting = counters.counting;
  counters.group = open_group(counting, cpu.perf_event_paranoid);
  counters.group->enable();
  const std::size_t count = counting.attrs.size();
  counters.read_reader = make_group_read_reader(counters.group, count, counting.perf_metrics ? metrics::kFieldFull : 1);
#ifdef TOPDOWN_RDPMC
  // PERF_METRICS is read through SLOTS's page only (the fields with their own rdpmc number).
  if (counters.group->map_pages() && rdpmc_usable(*counters.group, counting.perf_metrics ? 1 : count)) {
    const uint64_t reset_slots = options.reset_slots ? options.reset_slots : metrics::kDefaultResetSlots;
    counters.rdpmc_reader = counting.perf_metrics
                                ? make_metrics_rdpmc_reader(counters.group, options.level, {reset_slots})
                                : make_rdpmc_reader(counters.group, count);
  }
#endif
  return counters;
}

std::unique_ptr<Session::Impl> open_session(const Options& options) {
  OpenCounters counters = open_counters(options);
  SessionInfo info;
  info.method = counters.counting.method_name;
  info.title = counters.counting.title;
  for (const perf::Event& event : counters.counting.events) info.events.push_back(event.name);
  // read() first: on PERF_METRICS it resets the counters, and the rdpmc
  // reader starts its own period afterwards.
  info.read_ns = time_reader(*counters.read_reader);
  if (counters.rdpmc_reader) info.rdpmc_ns = time_reader(*counters.rdpmc_reader);
  info.reader = choose_reader(options.reader, info.rdpmc_ns, info.read_ns);
  return start_session(std::move(counters), info);
}

std::unique_ptr<Session::Impl> start_session(OpenCounters counters, SessionInfo info) {
  std::unique_ptr<CounterReader> reader =
      info.reader == Reader::Rdpmc ? std::move(counters.rdpmc_reader) : std::move(counters.read_reader);
  counters.group->reset();
  reader->start();
  const std::size_t count = counters.counting.attrs.size();
  return std::make_unique<Session::Impl>(std::move(reader), std::move(counters.counting.method), count,
                                         std::move(info));
}

}  // namespace topdown::region
