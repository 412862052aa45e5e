#pragma once
// --html FILE: the records a command writes, also drawn as one HTML page
// that appears whole, or not at all, when the command ends.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/output.h"
#include "html/html.h"

namespace topdown::cli {

class HtmlOutput {
 public:
  // Nothing is drawn without --html. The file's directory is checked now,
  // so that a run is not wasted on a page that cannot be written.
  HtmlOutput(const ReportOptions& options, const model::Model& model, std::string counting);

  explicit operator bool() const { return writer_.has_value(); }

  void add(std::optional<double> time_s, const std::vector<report::Report>& reports);

  // report: the profile's flame graph, made only when a page is written.
  void set_flame_graph(const std::function<profile::FlameGraph()>& make) {
    if (writer_) writer_->set_flame_graph(make());
  }

  // Writes the page (the run's facts `vars` list each node's events).
  void commit(const model::RunVariables& vars);

 private:
  std::optional<ReportSink> sink_;
  std::optional<html::HtmlWriter> writer_;
};

// How stat counts, in words, for the page's header.
std::string counting_words(const StatOptions& options);
// How import read its file, in words.
std::string counting_words(const ImportOptions& options);

}  // namespace topdown::cli
