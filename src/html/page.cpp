#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/error.h"
#include "html/draw.h"
#include "html/escape.h"
#include "html/html.h"

namespace topdown::html {
namespace {

// Beyond these, the data stays in the page but is not drawn: a page of a
// hundred trees or timelines is not read, and would load slowly.
constexpr size_t kMaxTrees = 64;
constexpr size_t kMaxTimelines = 16;

// Every page's: the body, headings, the header's list, legends and notes.
constexpr std::string_view kBaseStyle = R"(
body{font:14px/1.4 sans-serif;margin:16px 24px;color:#222;max-width:1400px}
h1{font-size:20px;margin:0 0 8px}h2{font-size:17px;margin:24px 0 8px;border-bottom:1px solid #ddd}
dl.run{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0}dt{color:#666}dd{margin:0}
.legend span{display:inline-block;margin-right:14px}
.legend i{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:-1px}
svg text{pointer-events:none}.note{color:#666;font-size:13px}
)";

constexpr std::string_view kStyle = R"(
h2.core-type{font-size:19px;background:#eef3fb;border:none;padding:4px 8px;margin:32px 0 8px}
.warnings{background:#fff6e0;border:1px solid #e8c872;padding:6px 10px 6px 28px;margin:8px 0}
.bottleneck-line{font-weight:bold}.tree{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}
table.info{border-collapse:collapse;font-size:13px}table.info td,table.info th{padding:2px 8px;text-align:left}
table.info td.value{text-align:right;font-variant-numeric:tabular-nums}table.info tr:nth-child(even){background:#f4f4f4}
table.info tr.over td.name{font-weight:bold}
.tree>div:first-child{flex:1 1 640px;min-width:480px}.units{display:flex;flex-wrap:wrap;gap:16px}svg g.node{cursor:pointer}
.functions-view{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}.function-list{flex:0 1 auto;max-width:100%;overflow-x:auto}
.function-trees{flex:1 1 320px;min-width:320px;overflow-x:auto}.function-trees .tree{display:block}
.function-trees .tree>div:first-child{min-width:0}.function-trees select{max-width:100%}
table.functions{border-collapse:collapse;font-size:13px}table.functions td,table.functions th{padding:2px 6px;text-align:left}
table.functions td.num,table.functions th.num{text-align:right;font-variant-numeric:tabular-nums}
table.functions td.name{white-space:nowrap}table.functions td.module{color:#666;white-space:nowrap}
table.functions tr.function{cursor:pointer}table.functions tr.function:hover{background:#eef3fb}
table.functions tr.selected{background:#dde8f8}table.functions tr.whole td.name{font-style:italic}
.tag{font-size:11px;color:#666;border:1px solid #ccc;border-radius:3px;padding:0 3px}
svg.flame g.frame{cursor:pointer}svg.flame rect{stroke:#fff;stroke-width:0.5}svg.flame g.frame.other rect{fill:#bbb}
svg.flame g.frame.match rect{stroke:#d0006f;stroke-width:2}svg.flame g.frame.ancestor{opacity:0.5}
)";

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& word : words) out += (out.empty() ? "" : " ") + word;
  return out;
}

std::string legend() {
  return R"(<p class="legend">)" + area_legend() +
         "<span>outlined: the bottleneck's path</span><span>faded: under its threshold</span>"
         "<span>hatched: unreliable (counted too little)</span><span>red corner: outside 0-100%, clamped</span></p>";
}

std::string definition(std::string_view term, const std::string& text) {
  return fmt::format("<dt>{}</dt><dd>{}</dd>", term, escape(text));
}

std::string title_of(const report::Report& report) {
  return report.run.source.empty() ? joined(report.run.command) : report.run.source;
}

std::string title_heading(const std::string& title) { return "<h1>topdown: " + escape(title) + "</h1>"; }

// The run's facts and warnings; `titled` with the page's title above them.
std::string header(const std::vector<report::Report>& tree, const PageInfo& info, size_t intervals, bool titled) {
  const report::Report& first = tree.front();
  const report::RunInfo& run = first.run;
  std::string out = "<header>" + (titled ? title_heading(title_of(first)) : "") + "<dl class=\"run\">";
  out += definition("CPU and model", run.model_title + " (" + run.model_name + ")");
  if (run.source.empty()) {
    out += definition("command", joined(run.command));
  } else {
    out += definition("file", run.source);
  }
  // An imported file need not say how long it counted.
  const std::optional<double> elapsed_s = run.known_elapsed_s();
  std::string duration = elapsed_s ? fmt::format("{:.3f} s", *elapsed_s) : "n/a";
  if (intervals > 0) duration += fmt::format(", {} intervals", intervals);
  if (run.exit_code) duration += fmt::format(", exit status {}", *run.exit_code);
  if (run.signal) duration += ", killed by " + report::signal_name(*run.signal);
  out += definition("duration", duration);
  if (!info.counting.empty()) out += definition("counting", info.counting);
  double counted = 1;
  for (const auto& report : tree) counted = std::min(counted, report.evaluation.counted_share);
  std::string multiplexing = "none: every event counted all the time";
  if (run.multiplexed || counted < 1) {
    multiplexing =
        fmt::format("events counted {:.0f}% of the time or more, values scaled to the whole time (~)", counted * 100);
    if (run.groups > 0) multiplexing += fmt::format("; {} counter groups rotated", run.groups);
  }
  out += definition("multiplexing", multiplexing);
  out += "</dl>";
  std::vector<std::string> warnings;
  for (const auto& report : tree) {
    for (const auto& warning : report.evaluation.warnings) {
      const std::string line = report.scope.empty() ? warning : report.scope + ": " + warning;
      if (std::find(warnings.begin(), warnings.end(), line) == warnings.end()) warnings.push_back(line);
    }
  }
  if (!warnings.empty()) {
    out += "<ul class=\"warnings\">";
    for (const auto& warning : warnings) out += "<li>" + escape(warning) + "</li>";
    out += "</ul>";
  }
  return out + "</header>";
}

std::string info_table(const eval::Evaluation& evaluation) {
  std::string rows;
  for (const auto& node : evaluation.nodes) {
    if (!node.node->is_info) continue;
    rows += fmt::format(
        R"(<tr class="{}" data-node="{}"><td class="name">{}</td><td class="value">{}</td><td>{}</td></tr>)",
        node.over_threshold ? "over" : "under", escape(node.node->name), escape(node.node->name),
        escape(shown_value(node)), escape(report::status_of(node)));
  }
  if (rows.empty()) return "";
  return "<div><h3>Info metrics</h3><table class=\"info\"><tr><th>metric</th><th>value</th><th>status</th></tr>" +
         rows + "</table></div>";
}

std::string bottleneck_line(const eval::Evaluation& evaluation) {
  const eval::NodeResult* bottleneck = evaluation.bottleneck();
  if (!bottleneck) return R"(<p class="bottleneck-line">No bottleneck: no node is over its threshold.</p>)";
  std::string out = fmt::format(R"(<p class="bottleneck-line">Bottleneck: {} {}</p>)", escape(bottleneck->node->name),
                                escape(shown_value(*bottleneck)));
  if (!bottleneck->node->advice.empty()) out += "<p>" + escape(bottleneck->node->advice) + "</p>";
  return out;
}

// Each unit's tree (its bottleneck, icicle and Info table), the first shown.
std::string unit_trees(const std::vector<report::Report>& tree, const model::Dependencies& dependencies,
                       std::string_view id_prefix) {
  std::string out;
  const bool scoped = tree.size() > 1 || !tree.front().scope.empty();
  if (scoped) {
    std::vector<std::string> units;
    for (const report::Report& report : tree) units.push_back(report.scope);
    out += choice_of(std::string(id_prefix) + "unit-tree", "unit", units, kMaxTrees);
  }
  for (size_t i = 0; i < tree.size() && i < kMaxTrees; ++i) {
    const eval::Evaluation& evaluation = tree[i].evaluation;
    out += fmt::format(R"(<div class="unit-tree" data-index="{}" data-scope="{}"{}>)", i, escape(tree[i].scope),
                       i > 0 ? " hidden" : "");
    out += bottleneck_line(evaluation);
    out += "<div class=\"tree\"><div>" + icicle_svg(evaluation, dependencies) + "</div>" + info_table(evaluation) +
           "</div></div>";
  }
  return out;
}

std::string tree_section(const std::vector<report::Report>& tree, bool whole, const model::Dependencies& dependencies,
                         std::string_view id_prefix) {
  return fmt::format("<section id=\"{}tree\"><h2>The tree{}</h2>", id_prefix, whole ? "" : " (the last interval)") +
         legend() + unit_trees(tree, dependencies, id_prefix) + "</section>";
}

// A profile's functions: the table, and beside it the tree of the one chosen.
std::string functions_section(const std::vector<report::Report>& reports,
                              const std::vector<const model::Node*>& tree_nodes,
                              const model::Dependencies& dependencies, std::string_view id_prefix) {
  return fmt::format("<section id=\"{}functions\">", id_prefix) +
         "<h2>Functions</h2><p class=\"note\">Share: of the clockticks. Sort by a "
         "node's slots (its value times the function's clockticks) to rank functions by what they lose there; "
         "click a row for its tree. Long names are cut (…): hover for the whole name.</p>" +
         legend() + "<div class=\"functions-view\">" + functions_table(reports, tree_nodes, id_prefix) +
         "<div class=\"function-trees\">" + unit_trees(reports, dependencies, id_prefix) + "</div></div></section>";
}

int default_chosen(const std::vector<const model::Node*>& tree, const std::vector<report::Report>& records) {
  const eval::NodeResult* bottleneck = records.empty() ? nullptr : records.front().evaluation.bottleneck();
  for (size_t n = 0; n < tree.size(); ++n) {
    if (bottleneck && tree[n] == bottleneck->node) return static_cast<int>(n);
  }
  return 0;
}

std::string time_section(const std::vector<double>& times, const std::vector<HtmlWriter::Series>& series,
                         const std::vector<const model::Node*>& tree, int chosen, std::string_view id_prefix) {
  std::string out = fmt::format("<section id=\"{}time\">", id_prefix) +
                    "<h2>Over time</h2><p class=\"note\">Level 1 as a share of slots (each column the mean of "
                    "its intervals), the bottleneck of each column in the band under it, and the line of one node "
                    "(click a box of the tree or choose):</p>";
  out += fmt::format(R"(<p><label>node <select id="{}chosen-node">)", id_prefix);
  for (size_t n = 0; n < tree.size(); ++n) {
    out += fmt::format(R"(<option value="{}"{}>{}{}</option>)", n, static_cast<int>(n) == chosen ? " selected" : "",
                       std::string(2 * static_cast<size_t>(tree[n]->level - 1), '.'), escape(tree[n]->name));
  }
  out += "</select></label></p>";
  for (size_t i = 0; i < series.size() && i < kMaxTimelines; ++i) {
    if (!series[i].scope.empty()) out += "<h3>" + escape(series[i].scope) + "</h3>";
    out += timeline_svg(times, series[i], tree, chosen, i);
  }
  if (series.size() > kMaxTimelines) {
    out += fmt::format(R"(<p class="note">The first {} of {} units are drawn; the page's data holds all.</p>)",
                       kMaxTimelines, series.size());
  }
  return out + "</section>";
}

// Values in hundredths of a percent: enough for any picture, and a quarter
// of the size of full precision for 10,000 intervals of 100 nodes.
nlohmann::json page_data(const std::vector<double>& times, const std::vector<HtmlWriter::Series>& series,
                         const std::vector<const model::Node*>& tree) {
  nlohmann::json nodes = nlohmann::json::array();
  for (const auto* node : tree) {
    nodes.push_back({{"name", node->name}, {"level", node->level}, {"parent", node->parent}, {"area", node->area}});
  }
  nlohmann::json all = nlohmann::json::array();
  for (const auto& one : series) {
    nlohmann::json values = nlohmann::json::array();
    for (const auto& node_values : one.values) {
      nlohmann::json list = nlohmann::json::array();
      for (float value : node_values) {
        list.push_back(std::isnan(value) ? nlohmann::json() : nlohmann::json(std::lround(value * 10000.0)));
      }
      values.push_back(std::move(list));
    }
    all.push_back({{"scope", one.scope}, {"values", std::move(values)}, {"bottleneck", one.bottleneck}});
  }
  return {{"format", "topdown-html-1"},
          {"value_scale", 10000},
          {"timeline", timeline_geometry()},
          {"times", times},
          {"nodes", nodes},
          {"series", all}};
}

// The hatching of unreliable values, which every view's pictures share.
constexpr std::string_view kPatterns =
    R"svg(<svg width="0" height="0" style="position:absolute"><defs><pattern id="unreliable" width="6" )svg"
    R"svg(height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="2" height="6" )svg"
    R"svg(fill="#000" opacity="0.45"/></pattern></defs></svg>)svg";

std::string page_end() { return "<script>" + std::string(page_script()) + "</script></body></html>\n"; }

}  // namespace

std::string choice_of(std::string_view id, std::string_view word, const std::vector<std::string>& names, size_t drawn) {
  std::string out = fmt::format(R"(<p><label>{} <select id="{}">)", word, id);
  for (size_t i = 0; i < names.size() && i < drawn; ++i) {
    out += fmt::format(R"(<option value="{}">{}</option>)", i, escape(names[i]));
  }
  out += "</select></label></p>";
  if (names.size() > drawn) {
    out += fmt::format(R"(<p class="note">The first {} of {} {}s are drawn.</p>)", drawn, names.size(), word);
  }
  return out;
}

std::string page_start(std::string_view title, std::string_view style) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      // Nothing from the network: the page is all there is.
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
      "script-src 'unsafe-inline'\">"
      "<title>{}</title><style>{}{}</style></head><body>",
      escape(title), kBaseStyle, style);
}

const std::vector<report::Report>& HtmlWriter::tree() const { return whole_ ? *whole_ : last_interval_; }

std::string HtmlWriter::view(const model::RunVariables& vars, std::string_view id_prefix, bool typed) const {
  const bool whole = whole_.has_value();
  const std::vector<report::Report>& tree = this->tree();
  if (tree.empty()) throw Error("no report to write as HTML");
  const model::Dependencies dependencies(model_, vars);
  std::string out =
      typed ? "<h2 class=\"core-type\">" + escape(report::core_type_share_heading(tree.front())) + "</h2>" : "";
  out += header(tree, info_, times_.size(), !typed);
  // Over time first: the timeline sits above the trees' Info tables.
  if (!times_.empty()) out += time_section(times_, series_, tree_nodes_, default_chosen(tree_nodes_, tree), id_prefix);
  const bool sampled = tree.front().run.sampled.has_value();
  if (sampled) {
    out += functions_section(tree, tree_nodes_, dependencies, id_prefix);
  } else {
    out += tree_section(tree, whole, dependencies, id_prefix);
  }
  if (flame_) {
    out += flame_section(*flame_, tree_nodes_, tree.front().run.sampled ? tree.front().run.sampled->clock_event : "",
                         id_prefix);
  }
  if (!sampled && (tree.size() > 1 || !tree.front().scope.empty())) {
    out += fmt::format("<section id=\"{}units\"><h2>Per unit</h2><div class=\"units\">", id_prefix) + units_svg(tree) +
           "</div></section>";
  }
  nlohmann::json data = page_data(times_, series_, tree_nodes_);
  if (flame_) data["flame"] = flame_data(*flame_, tree_nodes_);
  return out + fmt::format("<script type=\"application/json\" id=\"{}td-data\">", id_prefix) + script_json(data) +
         "</script>";
}

std::string HtmlWriter::page(const model::RunVariables& vars) const {
  const std::string body = view(vars, "", false);
  return page_start("topdown: " + title(), kStyle) + std::string(kPatterns) + body + page_end();
}

std::string HtmlWriter::title() const { return empty() ? "" : title_of(tree().front()); }

std::string core_type_page(const std::vector<CoreTypeView>& views) {
  std::string body;
  std::optional<std::string> title;  // the first drawn view's
  for (size_t i = 0; i < views.size(); ++i) {
    if (views[i].writer->empty()) continue;  // a core type the task did not run on
    if (!title) title = views[i].writer->title();
    const std::string prefix = fmt::format("type{}-", i);
    body += fmt::format(R"(<section class="td-view core-type" data-prefix="{}">)", prefix) +
            views[i].writer->view(*views[i].vars, prefix, true) + "</section>";
  }
  if (!title) throw Error("no report to write as HTML");
  return page_start("topdown: " + *title, kStyle) + std::string(kPatterns) + title_heading(*title) + body + page_end();
}

}  // namespace topdown::html
