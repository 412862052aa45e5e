#pragma once
// The page's pictures, as SVG elements. Private to the html stage.
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "compare/compare.h"
#include "eval/evaluate.h"
#include "html/html.h"
#include "model/dependencies.h"
#include "report/report.h"

namespace topdown::html {

// The fill of a node's area (FE, BAD, BE, BE/Mem, BE/Core, RET, SMT).
std::string area_color(std::string_view area);
// A level-1 node's fill: its area's, else (a model without areas) one of a
// few by `index`, its place among level 1.
std::string level1_color(const model::Node& node, size_t index);
// A swatch and name per area, as <span>s for a legend.
std::string area_legend();

// The page up to its <body>: the `title` (escaped here), the style every
// page shares and its own `style`, and a Content-Security-Policy that forbids anything from outside.
std::string page_start(std::string_view title, std::string_view style);

// A <select id=`id`> labelled `word` that picks one of `names`; only the
// first `drawn` are drawn, and a note says how many were left out.
std::string choice_of(std::string_view id, std::string_view word, const std::vector<std::string>& names, size_t drawn);

// The tree of `evaluation` as an icicle: one row per level, each node a box
// inside its parent's span, as wide as its share of slots (a node of
// another domain, cycles or stalls, as if it were the same share of slots,
// narrowed to fit its parent when its siblings overflow it). Each box is a
// <g class="node" data-node=NAME data-value=VALUE> with a <title> tooltip.
std::string icicle_svg(const eval::Evaluation& evaluation, const model::Dependencies& dependencies);

// Level 1 of one scope over time, drawn in at most kTimelineColumns columns
// (each the mean of its intervals), the bottleneck of each column (the most
// frequent) as a band, and the `chosen` node's line (an index into `tree`)
// in a panel under it. `index` numbers the scope's timeline for the script.
constexpr size_t kTimelineColumns = 600;
std::string timeline_svg(const std::vector<double>& times, const HtmlWriter::Series& series,
                         const std::vector<const model::Node*>& tree, int chosen, size_t index);

// Where timeline_svg draws the chosen node's line, for the script that
// redraws it: {columns, left, width, line_top, line_height}.
nlohmann::json timeline_geometry();

// One small bar chart per level-1 node, one bar per unit, the units sorted
// by that node's value, largest first.
std::string units_svg(const std::vector<report::Report>& reports);

// Level 1 of A over level 1 of B for one compared scope: two stacked 0-100%
// bars, each node a <g class="segment" data-side="A|B" data-node=NAME
// data-value=VALUE> coloured by its area.
std::string level1_bars_svg(const compare::ScopeChanges& scope);

// The end of a change bar's scale for the `largest` change: 1, 2 or 5 times
// a whole power of ten, at least `least`.
double bar_scale(double largest, double least);

// A change as a bar from zero (the middle), `scale` at either end (longer
// bars end in an arrowhead): solid when significant, faded when not, dashed
// when it cannot be judged; no bar when the change is n/a.
std::string change_bar_svg(const compare::Change& change, double scale);

// `text` cut to at most `most` characters (UTF-8 code points), an
// ellipsis where the cut is, a third of them before it: a function's
// namespace and, more of it, its own name and parameters stay in sight.
std::string elide_middle(std::string_view text, size_t most);

// A report's functions (reports with RunInfo::sampled) as a table, one row
// per report (the whole program first), sortable by share, samples or any
// of `tree`'s nodes' slots, each row a stacked bar of level 1; clicking a
// row shows its tree (the .unit-tree of the same index) beside the table.
// `id_prefix` starts the ids of the page's elements (a hybrid CPU's page
// has one set per core type; see core_type_page), here and below.
std::string functions_table(const std::vector<report::Report>& reports, const std::vector<const model::Node*>& tree,
                            std::string_view id_prefix);

// Where each frame of a flame graph is drawn, as fractions of the root's width.
struct FlameSpan {
  double x = 0;
  double width = 0;
};
std::vector<FlameSpan> flame_layout(const profile::FlameGraph& flame);
constexpr double kFlameWidth = 1200;  // the SVG's user units
constexpr double kFlameFrameHeight = 17;
// A frame's label `width` units wide: the name when it fits, else cut as the
// functions table cuts it when enough of it shows to be told apart, else
// nothing.
std::string flame_label(const std::string& name, double width);
// The level-1 tree node of `evaluation` with the largest value; null when none has one.
const eval::NodeResult* largest_level1(const eval::Evaluation& evaluation);
// A node's name as a class name: model names are identifiers already.
std::string class_name(std::string_view name);

// The flame graph of a profile: each frame a <g class="frame dominant-NODE"
// data-frame=INDEX data-name=NAME> as wide as its share of the clockticks,
// coloured by its largest level-1 node (opaque as that node's share), the
// root at the bottom; with a search box and a choice of the node that colours.
std::string flame_section(const profile::FlameGraph& flame, const std::vector<const model::Node*>& tree,
                          const std::string& clock_event, std::string_view id_prefix);
// The frames for the script that zooms and recolours: per frame its
// parent, depth, x and width (fractions of the root) and `tree`'s values.
nlohmann::json flame_data(const profile::FlameGraph& flame, const std::vector<const model::Node*>& tree);

// The inline script: redraws the chosen node's line of every timeline from
// the page's data, shows the tree of the unit (or function row) chosen,
// sorts the functions table, and zooms, searches and recolours the flame
// graph; on a page of core types (each a .td-view with data-prefix, the
// start of its ids) each type's elements from its own data.
std::string_view page_script();

// "12.3%" (a tree node, clamped) with its marks, "2.50 IPC", "n/a".
std::string shown_value(const eval::NodeResult& node);

}  // namespace topdown::html
