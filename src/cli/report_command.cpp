// topdown report FILE: the per-function profile of a sampled run.
#include <fmt/format.h>

#include <memory>
#include <optional>

#include "cli/commands.h"
#include "cli/file_names.h"
#include "cli/html_output.h"
#include "cli/output.h"
#include "cli/output_paths.h"
#include "cli/profile_file.h"
#include "cli/profile_locate.h"
#include "cli/render.h"
#include "pprof/pprof.h"
#include "profile/flame_graph.h"
#include "report/csv.h"
#include "report/report.h"

namespace topdown::cli {

int run_report(const ProfileOptions& options) {
  check_outputs_apart({{"the recording", options.file}, {"the file of --model", options.model_file}},
                      {{"-o", options.report.output}, {"--html", options.report.html}, {"--pprof", options.pprof}});
  ProfiledFile file = profile_file(options);
  const bool hybrid = file.hybrid;
  const std::vector<std::unique_ptr<CoreTypeProfile>>& types = file.types;
  std::vector<const model::Model*> type_models;
  for (const auto& type : types) type_models.push_back(&type->model);
  HtmlOutput html(options.report, type_models, file.counting);

  report::Layout layout = report_layout(options.report, false, true);
  layout.sampled = true;
  layout.core_typed = hybrid;
  report::ReportWriter writer(layout);
  std::string out;
  for (const auto& type : types) {
    out += writer.write(std::nullopt, type->reports);
    const report::Report& whole = type->reports.front();
    switch (layout.format) {
      case report::Format::Csv:
        out += locate_csv(type->profile.locate, type->recording,
                          hybrid ? report::core_type_fields(whole) : report::CsvRow{});
        break;
      case report::Format::Json:
        out += locate_json(type->profile.locate, type->recording, whole.core_type);
        break;
      default:
        out += locate_text(type->profile.locate, type->recording);
    }
    if (!options.pprof.empty()) {
      // A hybrid CPU's recording: one profile per core type (each tree has
      // its own nodes), FILE's name with the type's PMU (app-cpu_core.pb.gz).
      const pprof::About about{fmt::format("{}: {}", type->model.name, type->model.title), options.file};
      write_file_atomically(hybrid ? suffixed_path(options.pprof, type->type.pmu) : options.pprof,
                            pprof::gzip(pprof::encode_profile(type->recording, type->profile, about)), "--pprof");
    }
  }
  emit(options.report.output, out);
  // The page lists the whole program and each function in one table, each
  // with its tree, and draws the flame graph of the stacks: of each core
  // type in a section of its own.
  std::vector<model::RunVariables> vars;
  for (size_t i = 0; i < types.size(); ++i) {
    const CoreTypeProfile& type = *types[i];
    html.add(std::nullopt, type.reports);
    html.set_flame_graph(i, [&] {
      return profile::flame_graph(type.recording, *type.evaluator, *type.dependencies, type.profile_options);
    });
    vars.push_back(type.decision.vars);
  }
  html.commit(vars);
  return 0;
}

}  // namespace topdown::cli
