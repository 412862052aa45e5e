// Import throughput and memory: generates `perf stat -x, -I -A` files of
// 1,000 and 10,000 intervals x 8 CPUs x every event a model needs for -l6
// plus its Info metrics, reads each with the import stage and prints counter
// rows per second and the peak resident memory after each. The peak must not
// grow with the number of intervals: the file is streamed.
// Each file is read twice, side by side: summed into one report (the
// summary), and interval by interval with every interval's counts matched to
// the model and evaluated at -l6 with every Info metric (import
// --per-interval), which also prints the evaluation's time per interval and
// how many times the model's formulas were folded (once per run, never per
// interval).
// Usage: import_bench [MODEL]  (default: hsw when models/hsw.model exists, else zen5)
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "common/data_dir.h"
#include "eval/evaluate.h"
#include "events/model_resolver.h"
#include "import/import.h"
#include "model/dependencies.h"
#include "model/model.h"
#include "perf_file.h"
#include "schedule/plan.h"

namespace {

using namespace topdown;
using bench::events_for_all_nodes;

constexpr int kCpus = 8;

long peak_rss_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

struct PerInterval {
  double seconds = 0;
  double evaluating_s = 0;
  std::uint64_t folds = 0;  // model::FoldedModel built during the run
};

// import --per-interval: each interval matched to the model and evaluated.
PerInterval read_per_interval(const std::filesystem::path& path, const model::Model& model,
                              import::EventMatcher& matcher) {
  model::RunVariables vars;
  vars.smt_enabled = true;
  schedule::Selection selection;
  selection.max_level = 6;
  selection.all_info = true;
  eval::Options options;
  options.vars = vars;
  PerInterval result;
  const std::uint64_t folds_before = model::FoldedModel::built();
  const auto start = std::chrono::steady_clock::now();
  const eval::Evaluator evaluator(model, schedule::select_nodes(model, selection), options);
  size_t bottlenecks = 0;
  import::ReadOptions read_options;
  read_options.per_interval = true;
  import::read_file(path, read_options, [&](const import::Interval& interval, const import::FileInfo& file) {
    const auto translation = matcher.translate(interval.sample, file.events);
  const auto evaluating = std::chrono::steady_clock::now();
  const eval::Evaluation evaluation = evaluator.evaluate(translation.sample);
  result.evaluating_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - evaluating).count();
  if (evaluation.bottleneck()) ++bottlenecks;
});
result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
result.folds = model::FoldedModel::built() - folds_before;
if (bottlenecks == 0) throw Error("no interval had a bottleneck: the generated counts are not being evaluated");
return result;
}  // namespace

void run(const model::Model& model, import::EventMatcher& matcher, const std::vector<std::string>& events,
         int intervals) {
  const auto path =
      std::filesystem::temp_directory_path() / ("topdown-import-bench-" + std::to_string(getpid()) + ".csv");
  bench::write_perf_file(path, events, intervals, kCpus);
  const auto bytes = std::filesystem::file_size(path);
  counts::Sample total;
  std::vector<std::string> names;
  const auto start = std::chrono::steady_clock::now();
  const import::FileInfo info =
      import::read_file(path, import::ReadOptions{}, [&](const import::Interval& whole, const import::FileInfo& file) {
        total = whole.sample;
        names = file.events;
      });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::filesystem::remove(path);

  const auto translation = matcher.translate(total, names);
  std::printf(
      "%6d intervals: %9llu rows, %6.1f MB in %6.3f s = %5.2f M rows/s, %.0f MB/s; %zu events, %zu unmatched; "
      "peak RSS %ld KiB\n",
      intervals, static_cast<unsigned long long>(info.rows), static_cast<double>(bytes) / 1e6, seconds,
      static_cast<double>(info.rows) / seconds / 1e6, static_cast<double>(bytes) / seconds / 1e6, names.size(),
      translation.unmatched.size(), peak_rss_kib());

  bench::write_perf_file(path, events, intervals, kCpus);
  const PerInterval per_interval = read_per_interval(path, model, matcher);
  std::filesystem::remove(path);
  const double rows = static_cast<double>(info.rows);
  std::printf(
      "  summary only %5.2f M rows/s | per interval, -l6 + Info evaluated: %5.2f M rows/s, evaluation "
      "%.1f us/interval, model folded %llu time(s) for %d intervals\n",
      rows / seconds / 1e6, rows / per_interval.seconds / 1e6, per_interval.evaluating_s / intervals * 1e6,
      static_cast<unsigned long long>(per_interval.folds), intervals);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const auto models = models_dir();
    std::string name = argc > 1 ? argv[1] : std::filesystem::exists(models / "hsw.model") ? "hsw" : "zen5";
    const model::Model model = model::load_model(models / (name + ".model"));
    const auto events = events_for_all_nodes(model);
    std::printf("model %s: %zu events (-l6 and every Info metric, SMT on) x %d CPUs\n", model.name.c_str(),
                events.size(), kCpus);
    const events::Resolver resolver(events::offline_resolver_config(model));
    import::EventMatcher matcher(model, resolver);
    // Smaller first: getrusage's peak only grows, so an equal peak after the
    // larger file shows memory does not depend on the number of intervals.
    run(model, matcher, events, 1000);
    run(model, matcher, events, 10000);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "import_bench: %s\n", error.what());
    return 1;
  }
  return 0;
}
