#include <fmt/format.h>

#include <algorithm>

#include "html/draw.h"
#include "html/escape.h"

namespace topdown::html {
namespace {

constexpr double kLabelWidth = 110;
constexpr double kBarWidth = 150;
constexpr double kBarHeight = 14;
constexpr double kTitleHeight = 20;
constexpr size_t kLabelChars = 17;  // of the 11px font in kLabelWidth; the title has the whole

struct Bar {
  const report::Report* report;
  const eval::NodeResult* node;
};

double sort_key(const Bar& bar) { return bar.node && bar.node->value ? *bar.node->value : -1.0; }

std::string chart(const std::string& name, std::vector<Bar> bars) {
  std::stable_sort(bars.begin(), bars.end(), [](const Bar& a, const Bar& b) { return sort_key(a) > sort_key(b); });
  const double width = kLabelWidth + kBarWidth + 60;
  const double height = kTitleHeight + static_cast<double>(bars.size()) * (kBarHeight + 2);
  std::string out = fmt::format(
      R"(<svg class="unit-chart" data-node="{}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {} {}" width="{}" )"
      R"(height="{}" font-family="sans-serif" font-size="11" role="img"><text x="0" y="13" font-weight="bold">{}</text>)",
      escape(name), width, height, width, height, escape(name));
  double y = kTitleHeight;
  for (const Bar& bar : bars) {
    const std::string value = bar.node ? shown_value(*bar.node) : "n/a";
    const double share = bar.node && bar.node->value ? std::clamp(*bar.node->value, 0.0, 1.0) : 0.0;
    const std::string fill = bar.node ? area_color(bar.node->node->area) : "#b8b8b8";
    out += fmt::format(R"(<g class="unit" data-scope="{0}" data-value="{1}"><title>{0}: {2} {1}</title>)"
                       R"(<text x="{3}" y="{4:.1f}" text-anchor="end">{12}</text>)"
                       R"(<rect x="{5}" y="{6:.1f}" width="{7}" height="{8}" fill="#eee"/>)"
                       R"(<rect x="{5}" y="{6:.1f}" width="{9:.1f}" height="{8}" fill="{10}"/>)"
                       R"(<text x="{11}" y="{4:.1f}">{1}</text></g>)",
                       escape(bar.report->scope), escape(value), escape(name), kLabelWidth - 4, y + kBarHeight - 3,
                       kLabelWidth, y, kBarWidth, kBarHeight, share * kBarWidth, fill, kLabelWidth + kBarWidth + 4,
                       escape(elide_middle(bar.report->scope, kLabelChars)));
    y += kBarHeight + 2;
  }
  return out + "</svg>";
}

}  // namespace

std::string units_svg(const std::vector<report::Report>& reports) {
  std::vector<std::string> level1;
  for (const auto& node : reports.front().evaluation.nodes) {
    if (!node.node->is_info && node.node->level == 1) level1.push_back(node.node->name);
  }
  std::string out;
  for (const std::string& name : level1) {
    std::vector<Bar> bars;
    for (const report::Report& report : reports) bars.push_back({&report, report.evaluation.find(name)});
    out += chart(name, std::move(bars));
  }
  return out;
}

}  // namespace topdown::html
