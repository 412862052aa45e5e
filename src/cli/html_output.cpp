#include "cli/html_output.h"

#include <algorithm>

#include "common/strings.h"

namespace topdown::cli {
namespace {

std::string unit_words(aggregate::View view) {
  switch (view) {
    case aggregate::View::Thread:
      return ", one report per CPU or thread";
    case aggregate::View::Core:
      return ", one report per core";
    case aggregate::View::Socket:
      return ", one report per socket";
    case aggregate::View::Global:
      break;
  }
  return "";
}

}  // namespace

HtmlOutput::HtmlOutput(const ReportOptions& options, const std::vector<const model::Model*>& models,
                       const std::string& counting)
    : models_(models) {
  if (options.html.empty()) return;
  sink_.emplace(options.html, "--html");
  writers_.reserve(models.size());
  for (const model::Model* model : models) writers_.emplace_back(*model, html::PageInfo{counting});
}

void HtmlOutput::add(std::optional<double> time_s, const std::vector<report::Report>& reports) {
  if (writers_.empty()) return;
  std::vector<std::vector<report::Report>> by_view(writers_.size());
  for (const report::Report& report : reports) {
    const auto model = std::find_if(models_.begin(), models_.end(), [&](const model::Model* candidate) {
      return !report.core_type.empty() && candidate->core_type == report.core_type;
    });
    by_view[model == models_.end() ? 0 : static_cast<size_t>(model - models_.begin())].push_back(report);
    core_typed_ = core_typed_ || !report.core_type.empty();
  }
  for (size_t view = 0; view < writers_.size(); ++view) {
    if (!by_view[view].empty()) writers_[view].add(time_s, by_view[view]);
  }
}

void HtmlOutput::commit(const std::vector<model::RunVariables>& vars) {
  if (writers_.empty()) return;
  if (core_typed_) {
    std::vector<html::CoreTypeView> views;
    for (size_t view = 0; view < writers_.size() && view < vars.size(); ++view) {
      views.push_back({&writers_[view], &vars[view]});
    }
    sink_->write(html::core_type_page(views));
  } else {
    sink_->write(writers_.front().page(vars.front()));
  }
  sink_->commit();
}

std::string counting_words(const StatOptions& options) {
  std::string words;
  if (!options.pids.empty()) {
    words = "running processes (-p) and their threads";
  } else if (options.system_wide) {
    words = "every online CPU (-a)";
  } else if (!options.cpu_list.empty()) {
    words = "CPUs " + options.cpu_list + " (-C)";
  } else {
    words = "the command, its threads and children";
  }
  if (!options.cgroups.empty()) {
    words = "the tasks of cgroups " + join(options.cgroups, ",") + " (-G) on " +
            (options.cpu_list.empty() ? "every online CPU" : "CPUs " + options.cpu_list);
  }
  words += options.include_kernel ? ", user and kernel mode" : ", user mode";
  if (options.interval_ms) words += ", every " + std::to_string(*options.interval_ms) + " ms";
  if (options.no_multiplex) words += ", the command run once per counter group (--no-multiplex)";
  return words + unit_words(options.per);
}

std::string counting_words(const ImportOptions& options) {
  std::string words = "imported from a file";
  if (options.per_interval) words += ", per interval (the tree: the whole file)";
  return words + unit_words(options.per);
}

}  // namespace topdown::cli
