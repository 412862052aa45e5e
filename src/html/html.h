#pragma once
// The --html report: one self-contained page (no network, no external
// files) that draws the records a report::ReportWriter writes: the tree as
// an icicle of nested boxes, the Info metrics, level 1 over time and each
// unit's level 1; for a profile (topdown report) the functions as a
// sortable table beside the chosen one's tree, and a TMA flame graph. The pictures are SVG written here, so the page is
// the same for the same records; a small inline script only redraws the line of the node chosen for the timeline and
// switches the unit shown in the tree.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "model/dependencies.h"
#include "model/model.h"
#include "profile/flame_graph.h"
#include "report/report.h"

namespace topdown::html {

// What the records do not say about the run, for the page's header.
struct PageInfo {
  // How it was counted, in words ("the command and its children, user
  // mode, every 100 ms", "a perf stat file, per core").
  std::string counting;
};

// Collects the records of a run as ReportWriter::write takes them, keeping
// only what the page draws of each interval (the tree nodes' values and the
// bottleneck), then writes the page.
class HtmlWriter {
 public:
  // `model` is the one the reports were evaluated with; it must outlive
  // the writer.
  HtmlWriter(const model::Model& model, PageInfo info);

  // One record: an interval's reports (its end `time_s`) or the whole run's
  // (nullopt); one report, or one per unit.
  void add(std::optional<double> time_s, const std::vector<report::Report>& reports);

  // A profile's flame graph, drawn in a section of its own.
  void set_flame_graph(profile::FlameGraph graph) { flame_ = std::move(graph); }

  // The page. `vars` are the run's facts, which decide the events each
  // node's formula uses (listed in its tooltip).
  std::string page(const model::RunVariables& vars) const;

  // What the page shows, without the page around it: `id_prefix` starts
  // its elements' ids; `typed`, headed by the core type and its share of
  // the cycles instead of the page's title (core_type_page).
  std::string view(const model::RunVariables& vars, std::string_view id_prefix, bool typed) const;

  // No record was added.
  bool empty() const { return tree().empty(); }
  // The page's title: the command counted, or the file read.
  std::string title() const;

  // One scope's intervals: per tree node (in tree_nodes() order) its value
  // in each interval (NaN when n/a), and the bottleneck of each interval
  // (an index into tree_nodes(), -1 for none).
  struct Series {
    std::string scope;
    std::vector<std::vector<float>> values;
    std::vector<int> bottleneck;
  };

 private:
  size_t series_index(const std::string& scope);
  // The reports the tree is drawn from: the whole run's, else the last interval's.
  const std::vector<report::Report>& tree() const;

  const model::Model& model_;
  PageInfo info_;
  std::vector<const model::Node*> tree_nodes_;  // of the first record, in its order
  std::vector<double> times_;
  std::vector<Series> series_;
  std::optional<std::vector<report::Report>> whole_;
  std::vector<report::Report> last_interval_;  // drawn as the tree when no whole run comes
  std::optional<profile::FlameGraph> flame_;
};

// One core type's records of a hybrid CPU's run, file or profile.
struct CoreTypeView {
  const HtmlWriter* writer;
  const model::RunVariables* vars;  // of that type's model
};

// A hybrid CPU's page: the title once, then a section per core type in the
// order given (P-cores first), each headed by its type and share of the
// cycles and drawn with its own model as a page alone would be. A type
// without records (the task never ran on it) is left out; Error when no
// type has any.
std::string core_type_page(const std::vector<CoreTypeView>& views);

}  // namespace topdown::html
