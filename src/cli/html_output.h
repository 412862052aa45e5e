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
  // so that a run is not wasted on a page that cannot be written. One view
  // per model: the one model's, or each core type's of a hybrid CPU
  // (P-cores first), which must outlive this.
  HtmlOutput(const ReportOptions& options, const std::vector<const model::Model*>& models, const std::string& counting);

  explicit operator bool() const { return !writers_.empty(); }

  // Each report goes to its core type's view (report::Report::core_type),
  // a report of no core type to the first.
  void add(std::optional<double> time_s, const std::vector<report::Report>& reports);

  // report: view `view`'s flame graph, made only when a page is written.
  void set_flame_graph(size_t view, const std::function<profile::FlameGraph()>& make) {
    if (view < writers_.size()) writers_[view].set_flame_graph(make());
  }

  // Writes the page: one tree, or, when the reports had core types, a
  // section per core type that has any (html::core_type_page). `vars` are
  // each view's run facts (they list each node's events).
  void commit(const std::vector<model::RunVariables>& vars);

 private:
  std::optional<ReportSink> sink_;
  std::vector<const model::Model*> models_;
  std::vector<html::HtmlWriter> writers_;  // one per model
  bool core_typed_ = false;                // a report had a core type
};

// How stat counts, in words, for the page's header.
std::string counting_words(const StatOptions& options);
// How import read its file, in words.
std::string counting_words(const ImportOptions& options);

}  // namespace topdown::cli
