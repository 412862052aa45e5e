// The size and cost of one /metrics scrape at scale: `topdown serve -l 2
// --info` on a 192-CPU server (two sockets of 48 cores, two threads each)
// with the Sapphire Rapids model, every event counted, for the machine
// alone and with --per-socket, --per-core and --per-thread. The snapshot is
// made once, as the counting thread makes it; each iteration renders it as
// a scrape does. The goal: under 5 ms a scrape with --per-thread. Prints the
// bytes, series and scopes of a scrape as counters.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "model/model.h"
#include "serve/exposition.h"
#include "serve/snapshot.h"

namespace {

using namespace topdown;

constexpr int kCpus = 192;
constexpr int kCoresPerSocket = 48;

// CPUs 0-95 are the first thread of each core, 96-191 their siblings.
aggregate::Topology server_topology() {
  std::map<int, aggregate::CpuPlace> cpus;
  for (int cpu = 0; cpu < kCpus; ++cpu) {
    const int core = cpu % (kCpus / 2);
    cpus[cpu] = aggregate::CpuPlace{core % kCoresPerSocket, core / kCoresPerSocket};
  }
  return aggregate::Topology(std::move(cpus));
}

struct Scale {
  explicit Scale(aggregate::View per) : view(per) {}
  aggregate::View view;
  model::Model model = model::load_model(std::string(TOPDOWN_SOURCE_DIR) + "/models/spr.model");
  aggregate::Topology topology = server_topology();
  eval::Evaluator evaluator{model, level_2_and_info(model), eval::Options{}};
  std::shared_ptr<const serve::Snapshot> snapshot = make_snapshot();

  static std::vector<std::string> level_2_and_info(const model::Model& model) {
    std::vector<std::string> nodes;
    for (const model::Node& node : model.nodes) {
      if (node.is_info || node.level <= 2) nodes.push_back(node.name);
    }
    return nodes;
  }

  // Every event the nodes need (those an empty sample lacks), each CPU's
  // counts differing a little so that no two series are alike.
  std::shared_ptr<const serve::Snapshot> make_snapshot() const {
    std::set<std::string> events;
    for (const eval::NodeResult& node : evaluator.evaluate(counts::Sample{}).nodes) {
      events.insert(node.missing_events.begin(), node.missing_events.end());
    }
    std::vector<counts::Place> places;
    counts::Sample machine;
    for (int cpu = 0; cpu < kCpus; ++cpu) {
      counts::Sample sample;
      double count = 1e6 + 1000.0 * cpu;
      for (const std::string& event : events) sample.events[event] = {count += 7919, 1'000'000'000, 1'000'000'000};
      sample.duration_s = 1;
      counts::add_scaled(machine, sample);
      places.emplace_back("CPU" + std::to_string(cpu), std::move(sample));
    }
    machine.duration_s = 1;
    serve::SnapshotBuilder builder(evaluator, serve::ScopePlan{"machine", view, &topology, false}, "spr",
                                   report::RunInfo{}, std::chrono::milliseconds(1000));
    return builder.add(1.0, machine, places);
  }
};

// Argument: 0 the machine only, 1 --per-socket, 2 --per-core, 3 --per-thread.
void BM_ScrapeOf192Cpus(benchmark::State& state) {
  static const aggregate::View kViews[] = {aggregate::View::Global, aggregate::View::Socket, aggregate::View::Core,
                                           aggregate::View::Thread};
  // Made once per view: Google Benchmark calls this several times.
  static std::map<int64_t, std::unique_ptr<const Scale>> made;
  std::unique_ptr<const Scale>& made_scale = made[state.range(0)];
  if (!made_scale) made_scale = std::make_unique<const Scale>(kViews[state.range(0)]);
  const Scale& scale = *made_scale;
  std::string text;
  for (auto _ : state) {
    text = serve::write_exposition(*scale.snapshot);
    benchmark::DoNotOptimize(text.data());
  }
  const auto series = std::count_if(text.begin(), text.end(), [previous = '\n'](char c) mutable {
    const bool starts_series = previous == '\n' && c != '#';
    previous = c;
    return starts_series;
  });
  state.counters["bytes"] = static_cast<double>(text.size());
  state.counters["series"] = static_cast<double>(series);
  state.counters["scopes"] = static_cast<double>(scale.snapshot->scopes.size());
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_ScrapeOf192Cpus)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
