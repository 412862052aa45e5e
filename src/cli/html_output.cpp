#include "cli/html_output.h"

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

HtmlOutput::HtmlOutput(const ReportOptions& options, const model::Model& model, std::string counting) {
  if (options.html.empty()) return;
  sink_.emplace(options.html, "--html");
  writer_.emplace(model, html::PageInfo{std::move(counting)});
}

void HtmlOutput::add(std::optional<double> time_s, const std::vector<report::Report>& reports) {
  if (writer_) writer_->add(time_s, reports);
}

void HtmlOutput::commit(const model::RunVariables& vars) {
  if (!writer_) return;
  sink_->write(writer_->page(vars));
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
