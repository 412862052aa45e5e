// topdown compare of two saved reports of 10,000 intervals each (the JSON
// lines of `stat -I` or `import --per-interval`, written by the report stage
// from real evaluations of the Zen 5 model at -l2 with every Info metric and
// every event): prints the time to read both files, compare them (each
// interval a measurement) and render the text, in CPU time (and wall time).
// It must stay under a second; the exit status is 1 when it does not.
// Usage: compare_bench [INTERVALS]  (default 10000)
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/data_dir.h"
#include "compare/compare.h"
#include "eval/evaluate.h"
#include "model/model.h"
#include "report/report.h"
#include "schedule/plan.h"

namespace {

using namespace topdown;

counts::Count exact(double value) { return {value, 100000000, 100000000}; }

// One interval of Zen 5 counts whose backend share drifts with `shift`.
counts::Sample interval_counts(int i, double shift) {
  const double cycles = 3e8 + (i % 17) * 1e6;
  const double slots = 8 * cycles;
  const double backend = slots * (0.40 + shift + (i % 7) * 0.002);
  const double frontend = slots * 0.15;
  const double dispatched = slots - backend - frontend;
  counts::Sample sample;
  sample.duration_s = 0.1;
  sample.events["ls_not_halted_cyc"] = exact(cycles);
  sample.events["de_no_dispatch_per_slot.no_ops_from_frontend"] = exact(frontend);
  sample.events["de_no_dispatch_per_slot.no_ops_from_frontend:c8"] = exact(frontend / 16);
  sample.events["de_no_dispatch_per_slot.backend_stalls"] = exact(backend);
  sample.events["de_no_dispatch_per_slot.smt_contention"] = exact(0);
  sample.events["de_src_op_disp.all"] = exact(dispatched);
  sample.events["ex_ret_ops"] = exact(dispatched * 0.9);
  sample.events["ex_ret_ucode_ops"] = exact(dispatched * 0.01);
  sample.events["ex_ret_instr"] = exact(dispatched * 0.8);
  sample.events["ex_ret_brn_misp"] = exact(1e5 + i % 11);
  sample.events["bp_redirects.resync"] = exact(2e4);
  sample.events["ex_no_retire.not_complete"] = exact(backend / 8);
  sample.events["ex_no_retire.load_not_complete"] = exact(backend / 12);
  return sample;
}

std::filesystem::path write_report(const model::Model& model, int intervals, double shift, const std::string& name) {
  model::RunVariables vars;
  schedule::Selection selection;
  selection.max_level = 2;
  selection.all_info = true;
  const std::vector<std::string> nodes = schedule::select_nodes(model, selection);
  eval::Options options;
  options.vars = vars;
  const eval::Evaluator evaluator(model, nodes, options);
  report::Layout layout;
  layout.format = report::Format::Json;
  layout.timed = true;
  report::ReportWriter writer(layout);
  report::RunInfo run;
  run.model_name = model.name;
  run.model_title = model.title;
  run.command = {"./app"};
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream out(path);
  for (int i = 1; i <= intervals; ++i) {
    const counts::Sample sample = interval_counts(i, shift);
    out << writer.write(i * 0.1, {{"", evaluator.evaluate(sample), sample, run}});
  }
  return path;
}

std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const int intervals = argc > 1 ? std::stoi(argv[1]) : 10000;
    const model::Model model = model::load_model(models_dir() / "zen5.model");
    const auto a = write_report(model, intervals, 0.0, "compare_bench_a.json");
    const auto b = write_report(model, intervals, 0.01, "compare_bench_b.json");
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();
    const compare::Comparison comparison =
        compare::compare(compare::read_report(slurp(a), a.string()), compare::read_report(slurp(b), b.string()), 0.05);
    const std::string text = compare::render_text(comparison, {}, {});
    // CPU time decides: on a machine shared with other work the wall time
    // also counts the waits for a core.
    const double seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("compare of two reports of %d intervals (%.1f MB and %.1f MB): %.3f s of CPU (%.3f s wall)%s\n",
                intervals, static_cast<double>(std::filesystem::file_size(a)) / 1e6,
                static_cast<double>(std::filesystem::file_size(b)) / 1e6, seconds, wall_s,
                seconds < 1 ? "" : "  (over the 1 s budget)");
    std::fputs(text.c_str(), stdout);
    std::filesystem::remove(a);
    std::filesystem::remove(b);
    return seconds < 1 ? 0 : 1;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "compare_bench: %s\n", error.what());
    return 1;
  }
}
