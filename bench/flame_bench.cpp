// The flame graph of a large profile: a million samples of the software
// sampling model on 5,000 random call paths (2 to 24 deep over 400
// functions, chosen with weights falling as 1/rank: a few hot paths and a
// long tail, so that most distinct frames fall under 0.1% and are merged), merged and evaluated (profile::flame_graph),
// then drawn on the report's page (html::HtmlWriter::page). Counters: the frames kept, the frames merged and the page's
// size.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <memory>
#include <random>
#include <string>

#include "html/html.h"
#include "profile/flame_graph.h"

namespace {

using namespace topdown;

constexpr uint32_t kFunctions = 400;
constexpr uint32_t kPaths = 5000;
constexpr uint32_t kMaxDepth = 24;

// Index i of `count`, chosen with a weight falling as 1/(i+1).
std::discrete_distribution<uint32_t> zipf(uint32_t count) {
  std::vector<double> weights;
  for (uint32_t i = 0; i < count; ++i) weights.push_back(1.0 / (i + 1.0));
  return {weights.begin(), weights.end()};
}

recording::Recording large_recording(size_t samples) {
  recording::Recording recording;
  recording.header.call_graph = recording::CallGraph::PerfScript;
  recording::SampledGroup group;
  group.events = {"cpu-clock", "page-faults"};
  recording.header.groups.push_back(group);
  for (size_t i = 0; i < kFunctions; ++i) {
    recording.symbols.push_back({"app::module_" + std::to_string(i % 17) + "::function_" + std::to_string(i) +
                                     "(unsigned long, std::vector<int> const&)",
                                 "/usr/bin/app",
                                 "",
                                 0,
                                 {}});
  }
  std::mt19937 random(7);
  auto function = zipf(kFunctions);
  std::uniform_int_distribution<uint32_t> depth(2, kMaxDepth);
  std::vector<std::vector<uint32_t>> paths(kPaths);  // innermost first, all from function 0
  for (auto& path : paths) {
    path.resize(depth(random));
    for (auto& symbol : path) symbol = function(random);
    path.back() = 0;
  }
  auto path = zipf(kPaths);
  std::uniform_int_distribution<uint64_t> faults(0, 40);
  for (size_t s = 0; s < samples; ++s) {
    const std::vector<uint32_t>& stack = paths[path(random)];
    recording::Sample sample;
    sample.time = s * 1000;
    sample.first_value = static_cast<uint32_t>(recording.values.size());
    recording.values.push_back(100'000);
    recording.values.push_back(faults(random));
    sample.first_frame = static_cast<uint32_t>(recording.frames.symbols.size());
    sample.user_frames = static_cast<uint16_t>(stack.size());
    recording.frames.addresses.insert(recording.frames.addresses.end(), stack.size(), 0x1000);
    recording.frames.symbols.insert(recording.frames.symbols.end(), stack.begin(), stack.end());
    sample.symbol = stack.front();
    recording.samples.push_back(sample);
  }
  return recording;
}

struct Run {
  Run()
      : model(model::load_model(std::filesystem::path(TOPDOWN_SOURCE_DIR) / "tests/data/software_sampling.model")),
        folded(std::make_shared<model::FoldedModel>(model, model::RunVariables{})),
        dependencies(folded),
        evaluator(folded, {"Faulting", "Computing", "Faults_Per_Ms"}, {}),
        recording(large_recording(1'000'000)) {}
  model::Model model;
  std::shared_ptr<const model::FoldedModel> folded;
  model::Dependencies dependencies;
  eval::Evaluator evaluator;
  recording::Recording recording;
};

Run& run() {
  static Run shared;
  return shared;
}

void BM_FlameGraph(benchmark::State& state) {
  Run& r = run();
  profile::FlameGraph flame;
  for (auto _ : state) {
    flame = profile::flame_graph(r.recording, r.evaluator, r.dependencies, {});
    benchmark::DoNotOptimize(flame.frames.data());
  }
  state.counters["frames"] = static_cast<double>(flame.frames.size());
  state.counters["merged"] = static_cast<double>(flame.merged);
  state.counters["samples"] = static_cast<double>(r.recording.samples.size());
}

void BM_FlamePage(benchmark::State& state) {
  Run& r = run();
  const profile::FlameGraph flame = profile::flame_graph(r.recording, r.evaluator, r.dependencies, {});
  report::RunInfo info;
  info.model_name = r.model.name;
  info.model_title = r.model.title;
  info.source = "large.data";
  info.sampled = report::Sampled{};
  info.sampled->function = "[whole program]";
  info.sampled->share = 1;
  const report::Report whole{"[whole program]", flame.frames.front().result.evaluation,
                             flame.frames.front().result.function.counts, info};
  size_t bytes = 0;
  for (auto _ : state) {
    html::HtmlWriter writer(r.model, {});
    writer.add(std::nullopt, {whole});
    writer.set_flame_graph(flame);
    bytes = writer.page({}).size();
    benchmark::DoNotOptimize(bytes);
  }
  state.counters["frames"] = static_cast<double>(flame.frames.size());
  state.counters["page_MB"] = static_cast<double>(bytes) / 1e6;
}

BENCHMARK(BM_FlameGraph)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FlamePage)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
