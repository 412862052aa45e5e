#include <fmt/format.h>

#include <algorithm>

#include "common/strings.h"
#include "html/draw.h"
#include "html/escape.h"

namespace topdown::html {
namespace {

constexpr size_t kNameChars = 48;
constexpr size_t kModuleChars = 20;
constexpr double kBarWidth = 100;
constexpr double kBarHeight = 12;

std::string full_name(const report::Sampled& sampled) {
  return sampled.call_path.empty() ? sampled.function : join(sampled.call_path, " > ");
}

// Level 1 of one function as one stacked bar (shares over 100% in all
// are drawn scaled to fit).
std::string level1_bar(const eval::Evaluation& evaluation) {
  std::vector<const eval::NodeResult*> level1;
  double total = 0;
  std::string title;
  for (const auto& node : evaluation.nodes) {
    if (node.node->is_info || node.node->level != 1) continue;
    level1.push_back(&node);
    if (node.value) total += std::clamp(*node.value, 0.0, 1.0);
    title += (title.empty() ? "" : ", ") + node.node->name + " " + shown_value(node);
  }
  const double scale = total > 1 ? 1 / total : 1;
  std::string out = fmt::format(R"(<svg class="level1" width="{}" height="{}" role="img"><title>{}</title>)", kBarWidth,
                                kBarHeight, escape(title));
  double x = 0;
  for (size_t i = 0; i < level1.size(); ++i) {
    const eval::NodeResult* node = level1[i];
    if (!node->value) continue;
    const double width = std::clamp(*node->value, 0.0, 1.0) * scale * kBarWidth;
    out += fmt::format(R"(<rect data-node="{}" x="{:.1f}" width="{:.1f}" height="{}" fill="{}"/>)",
                       escape(node->node->name), x, width, kBarHeight, level1_color(*node->node, i));
    x += width;
  }
  return out + "</svg>";
}

// The sort keys of a row: its slots in each node (the node's value times
// the function's share of the clockticks), "-" where n/a.
std::string slots_of(const report::Report& report, const std::vector<const model::Node*>& tree) {
  std::string out;
  for (const model::Node* node : tree) {
    const eval::NodeResult* result = report.evaluation.find(node->name);
    out += out.empty() ? "" : " ";
    out += result && result->value ? fmt::format("{:.6g}", *result->value * report.run.sampled->share) : "-";
  }
  return out;
}

std::string bottleneck_cell(const eval::Evaluation& evaluation) {
  const eval::NodeResult* bottleneck = evaluation.bottleneck();
  if (!bottleneck) return R"(<td class="bottleneck none">none</td>)";
  return fmt::format(R"(<td class="bottleneck">{} {}</td>)", escape(bottleneck->node->name),
                     escape(shown_value(*bottleneck)));
}

}  // namespace

std::string elide_middle(std::string_view text, size_t most) {
  std::vector<size_t> starts;  // of each code point
  for (size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) starts.push_back(i);
  }
  if (starts.size() <= most || most < 3) return std::string(text);
  // A third before the cut, two thirds after: a C++ name's own function and
  // parameters are at its end.
  const size_t head = (most - 1) / 3;
  const size_t tail = most - 1 - head;
  return std::string(text.substr(0, starts[head])) + "\u2026" + std::string(text.substr(starts[starts.size() - tail]));
}

std::string functions_table(const std::vector<report::Report>& reports, const std::vector<const model::Node*>& tree,
                            std::string_view id_prefix) {
  std::string out = fmt::format(
      R"(<div class="function-list"><p><label>sort by <select id="{}function-sort"><option value="share">share</option>)"
      R"(<option value="samples">samples</option>)",
      id_prefix);
  for (size_t n = 0; n < tree.size(); ++n) {
    out += fmt::format(R"(<option value="{}">{}{} slots</option>)", n,
                       std::string(2 * static_cast<size_t>(tree[n]->level - 1), '.'), escape(tree[n]->name));
  }
  out +=
      "</select></label></p><table class=\"functions\"><thead><tr><th>function</th><th>module</th>"
      "<th class=\"num\">share</th><th class=\"num\">samples</th><th>level 1</th><th>bottleneck</th></tr></thead>"
      "<tbody>";
  for (size_t i = 0; i < reports.size(); ++i) {
    const report::Report& report = reports[i];
    const report::Sampled& sampled = *report.run.sampled;
    const std::string name = full_name(sampled);
    const bool whole = i == 0;
    std::string tag;
    if (sampled.tree != "self") tag = fmt::format(R"( <span class="tag">{}</span>)", escape(sampled.tree));
    out +=
        fmt::format(R"(<tr class="function{}" data-index="{}" data-share="{:.6g}" data-samples="{}" data-slots="{}">)"
                    R"(<td class="name" title="{}">{}{}</td><td class="module" title="{}">{}</td>)"
                    R"(<td class="num">{:.1f}%</td><td class="num">{}</td><td>{}</td>{}</tr>)",
                    whole ? " whole selected" : "", i, sampled.share, sampled.samples, slots_of(report, tree),
                    escape(name), escape(elide_middle(name, kNameChars)), tag, escape(sampled.module),
                    escape(elide_middle(sampled.module, kModuleChars)), sampled.share * 100, sampled.samples,
                    level1_bar(report.evaluation), bottleneck_cell(report.evaluation));
  }
  return out + "</tbody></table></div>";
}

}  // namespace topdown::html
