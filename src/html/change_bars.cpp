#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "html/draw.h"
#include "html/escape.h"

namespace topdown::html {
namespace {

constexpr double kWidth = 1000;
constexpr double kSideLabelWidth = 24;
constexpr double kBarHeight = 28;
constexpr double kBarGap = 6;
constexpr double kCharWidth = 6.8;  // of the 12px label font, on average

constexpr double kChangeWidth = 180;
constexpr double kChangeHeight = 14;
constexpr std::string_view kInfoColor = "#7b8fa8";

std::string side_bar(const std::vector<const compare::Change*>& level1, bool b, double y) {
  const char* side = b ? "B" : "A";
  std::string out =
      fmt::format(R"(<text x="0" y="{:.1f}" font-weight="bold">{}</text><rect x="{}" y="{:.1f}" width="{}" )"
                  R"(height="{}" fill="#f2f2f2"/>)",
                  y + kBarHeight / 2 + 4, side, kSideLabelWidth, y, kWidth - kSideLabelWidth, kBarHeight);
  const double track = kWidth - kSideLabelWidth;
  double wanted = 0;
  for (const auto* change : level1) {
    const auto& value = b ? change->b : change->a;
    if (value) wanted += std::clamp(*value, 0.0, 1.0);
  }
  // Level 1 that sums past 100% is drawn narrowed to fit, as the icicle does.
  const double scale = wanted > 1 ? 1 / wanted : 1;
  double x = kSideLabelWidth;
  for (const auto* change : level1) {
    const auto& value = b ? change->b : change->a;
    if (!value) continue;
    const double width = std::clamp(*value, 0.0, 1.0) * scale * track;
    const std::string shown = compare::value_text(value, true);
    const std::string full = change->name + " " + shown;
    std::string label;
    if (static_cast<double>(full.size()) * kCharWidth + 6 <= width) {
      label = full;
    } else if (static_cast<double>(shown.size()) * kCharWidth + 6 <= width) {
      label = shown;
    }
    out += fmt::format(R"(<g class="segment" data-side="{}" data-node="{}" data-value="{}"><title>{}: {} in {}</title>)"
                       R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{}" fill="{}" stroke="#fff"/>)",
                       side, escape(change->name), escape(shown), escape(change->name), escape(shown), side, x, y,
                       width, kBarHeight, area_color(change->area));
    if (!label.empty()) {
      out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}">{}</text>)", x + 4, y + kBarHeight / 2 + 4, escape(label));
    }
    out += "</g>";
    x += width;
  }
  return out;
}

}  // namespace

std::string level1_bars_svg(const compare::ScopeChanges& scope) {
  std::vector<const compare::Change*> level1;
  for (const auto& change : scope.changes) {
    if (change.level == 1) level1.push_back(&change);
  }
  const double axis_y = 2 * (kBarHeight + kBarGap);
  std::string out = side_bar(level1, false, 0) + side_bar(level1, true, kBarHeight + kBarGap);
  for (int percent = 0; percent <= 100; percent += 25) {
    const double x = kSideLabelWidth + (kWidth - kSideLabelWidth) * percent / 100.0;
    const char* anchor = percent == 0 ? "start" : percent == 100 ? "end" : "middle";
    out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}" font-size="10" fill="#666" text-anchor="{}">{}%</text>)", x,
                       axis_y + 8, anchor, percent);
  }
  return fmt::format(R"(<svg class="level1" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {} {}" width="100%" )"
                     R"(font-family="sans-serif" font-size="12" role="img">{}</svg>)",
                     kWidth, axis_y + 12, out);
}

double bar_scale(double largest, double least) {
  double scale = least;
  for (double decade = 1; scale < largest; decade *= 10) {
    for (double step : {1.0, 2.0, 5.0}) {
      scale = std::max(least, step * decade);
      if (scale >= largest) break;
    }
  }
  return scale;
}

std::string change_bar_svg(const compare::Change& change, double scale) {
  const double middle = kChangeWidth / 2;
  std::string out = fmt::format(
      R"(<svg class="change-bar" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {0} {1}" width="{0}" height="{1}">)"
      R"(<line x1="{2}" y1="0" x2="{2}" y2="{1}" stroke="#888"/>)",
      kChangeWidth, kChangeHeight, middle);
  if (change.change) {
    const double half = middle - 4;
    const double length = std::min(std::abs(*change.change) / scale, 1.0) * half;
    const double x = *change.change >= 0 ? middle : middle - length;
    const std::string fill = change.in_points() ? area_color(change.area) : std::string(kInfoColor);
    // Significant: solid and outlined; not significant: faded; not judged: dashed.
    const std::string look = change.significant ? R"( stroke="#000" stroke-width="1.5")"
                             : change.judged()  ? R"( opacity="0.35")"
                                                : R"( fill-opacity="0.6" stroke="#555" stroke-dasharray="3,2")";
    out += fmt::format(R"(<rect x="{:.1f}" y="2" width="{:.1f}" height="{}" fill="{}"{}/>)", x, length,
                       kChangeHeight - 4, fill, look);
    // Past the scale: an arrowhead says the bar goes on.
    if (std::abs(*change.change) > scale) {
      out += *change.change > 0 ? fmt::format(R"(<path d="M{:.1f},1l4,6l-4,6z" fill="#000"/>)", middle + half)
                                : fmt::format(R"(<path d="M{:.1f},1l-4,6l4,6z" fill="#000"/>)", middle - half);
    }
  }
  return out + "</svg>";
}

}  // namespace topdown::html
