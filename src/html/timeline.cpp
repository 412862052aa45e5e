#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "html/draw.h"
#include "html/escape.h"

namespace topdown::html {
namespace {

constexpr double kLeft = 44;  // room for the percent axis
constexpr double kWidth = 1000;
constexpr double kAreaHeight = 200;
constexpr double kBandTop = 206;
constexpr double kBandHeight = 14;
constexpr double kLineTop = 240;
constexpr double kLineHeight = 100;
constexpr double kHeight = 372;

// The intervals drawn as column c of `columns`: [first, last).
struct Span {
  size_t first = 0;
  size_t last = 0;
};
Span span_of(size_t c, size_t columns, size_t intervals) {
  return {c * intervals / columns, (c + 1) * intervals / columns};
}

// The mean of each column's values that are not n/a (NaN when all are).
std::vector<double> column_means(const std::vector<float>& values, size_t columns) {
  std::vector<double> means(columns, std::nan(""));
  for (size_t c = 0; c < columns; ++c) {
    const Span span = span_of(c, columns, values.size());
    double sum = 0;
    size_t known = 0;
    for (size_t i = span.first; i < span.last; ++i) {
      if (std::isnan(values[i])) continue;
      sum += values[i];
      ++known;
    }
    if (known > 0) means[c] = sum / static_cast<double>(known);
  }
  return means;
}

double column_x(size_t c, size_t columns) {
  return kLeft + (static_cast<double>(c) + 0.5) * kWidth / static_cast<double>(columns);
}

// "x,y x,y ...": the first and last values held to the plot's edges.
std::string points(const std::vector<double>& ys, size_t columns) {
  std::string out = fmt::format("{:.1f},{:.1f}", kLeft, ys.front());
  for (size_t c = 0; c < columns; ++c) out += fmt::format(" {:.1f},{:.1f}", column_x(c, columns), ys[c]);
  return out + fmt::format(" {:.1f},{:.1f}", kLeft + kWidth, ys.back());
}

double zero_if_na(double value) { return std::isnan(value) ? 0.0 : std::clamp(value, 0.0, 1.0); }

std::string stacked_areas(const HtmlWriter::Series& series, const std::vector<const model::Node*>& tree,
                          size_t columns) {
  std::string out;
  std::vector<double> below(columns, 0.0);
  for (size_t n = 0; n < tree.size(); ++n) {
    if (tree[n]->level != 1) continue;
    const std::vector<double> means = column_means(series.values[n], columns);
    std::vector<double> lower(columns);
    std::vector<double> upper(columns);
    for (size_t c = 0; c < columns; ++c) {
      lower[c] = kAreaHeight * (1 - below[c]);
      below[c] = std::min(1.0, below[c] + zero_if_na(means[c]));
      upper[c] = kAreaHeight * (1 - below[c]);
    }
    std::string outline = points(upper, columns);
    std::reverse(lower.begin(), lower.end());
    std::string back = fmt::format("{:.1f},{:.1f}", kLeft + kWidth, lower.front());
    for (size_t c = 0; c < columns; ++c)
      back += fmt::format(" {:.1f},{:.1f}", column_x(columns - 1 - c, columns), lower[c]);
    back += fmt::format(" {:.1f},{:.1f}", kLeft, lower.back());
    out += fmt::format(R"(<polygon class="level1" data-node="{}" fill="{}" points="{} {}"><title>{}</title></polygon>)",
                       escape(tree[n]->name), area_color(tree[n]->area), outline, back, escape(tree[n]->name));
  }
  return out;
}

// The most frequent bottleneck of each column, runs of equal columns as one box.
std::string bottleneck_band(const std::vector<double>& times, const HtmlWriter::Series& series,
                            const std::vector<const model::Node*>& tree, size_t columns) {
  std::vector<int> modes(columns, -1);
  for (size_t c = 0; c < columns; ++c) {
    const Span span = span_of(c, columns, series.bottleneck.size());
    std::map<int, size_t> seen;
    for (size_t i = span.first; i < span.last; ++i) ++seen[series.bottleneck[i]];
    size_t most = 0;
    for (const auto& [node, count] : seen) {
      if (count > most) {
        most = count;
        modes[c] = node;
      }
    }
  }
  std::string out;
  for (size_t c = 0; c < columns;) {
    size_t end = c + 1;
    while (end < columns && modes[end] == modes[c]) ++end;
    if (modes[c] >= 0) {
      const model::Node& node = *tree[static_cast<size_t>(modes[c])];
      const double x = kLeft + static_cast<double>(c) * kWidth / static_cast<double>(columns);
      const double width = static_cast<double>(end - c) * kWidth / static_cast<double>(columns);
      const size_t first = span_of(c, columns, times.size()).first;
      const size_t last = span_of(end - 1, columns, times.size()).last - 1;
      out += fmt::format(R"(<rect class="bottleneck-band" x="{:.1f}" y="{}" width="{:.1f}" height="{}" fill="{}">)"
                         R"(<title>bottleneck {} (intervals ending {:g} s to {:g} s)</title></rect>)",
                         x, kBandTop, width, kBandHeight, area_color(node.area), escape(node.name), times[first],
                         times[last]);
    }
    c = end;
  }
  return out;
}

std::string chosen_line(const HtmlWriter::Series& series, const std::vector<const model::Node*>& tree, int chosen,
                        size_t columns) {
  std::vector<double> means = column_means(series.values[static_cast<size_t>(chosen)], columns);
  double top = 0.1;
  for (double mean : means) {
    if (!std::isnan(mean)) top = std::max(top, std::ceil(std::min(mean, 1.0) * 10) / 10);
  }
  std::vector<double> ys(columns);
  for (size_t c = 0; c < columns; ++c) ys[c] = kLineTop + kLineHeight * (1 - zero_if_na(means[c]) / top);
  return fmt::format(R"(<text class="chosen-name" x="{}" y="{}">{}</text>)"
                     R"(<text class="chosen-top" x="{}" y="{}" text-anchor="end">{:.0f}%</text>)"
                     R"(<polyline class="chosen-line" fill="none" stroke="#222" stroke-width="1.5" points="{}"/>)",
                     kLeft + 4, kLineTop - 6, escape(tree[static_cast<size_t>(chosen)]->name), kLeft - 4, kLineTop + 4,
                     top * 100, points(ys, columns));
}

std::string axes(const std::vector<double>& times, size_t columns) {
  std::string out = fmt::format(
      R"(<g fill="#444"><text x="{0}" y="10" text-anchor="end">100%</text>)"
      R"(<text x="{0}" y="{1}" text-anchor="end">50%</text><text x="{0}" y="{2}" text-anchor="end">0%</text>)"
      R"(<text x="{0}" y="{3}" text-anchor="end">0%</text></g>)"
      R"(<rect x="{4}" y="{5}" width="{6}" height="{7}" fill="none" stroke="#999"/>)",
      kLeft - 4, kAreaHeight / 2 + 4, kAreaHeight, kLineTop + kLineHeight, kLeft, kLineTop, kWidth, kLineHeight);
  constexpr size_t kTicks = 5;
  for (size_t t = 0; t < kTicks; ++t) {
    const size_t c = t * (columns - 1) / (kTicks - 1);
    const size_t last = span_of(c, columns, times.size()).last - 1;
    out += fmt::format(R"(<text x="{:.1f}" y="{}" text-anchor="middle" fill="#444">{:g} s</text>)",
                       column_x(c, columns), kHeight - 6, times[last]);
  }
  return out;
}

}  // namespace

nlohmann::json timeline_geometry() {
  return {{"columns", kTimelineColumns},
          {"left", kLeft},
          {"width", kWidth},
          {"line_top", kLineTop},
          {"line_height", kLineHeight}};
}

std::string timeline_svg(const std::vector<double>& times, const HtmlWriter::Series& series,
                         const std::vector<const model::Node*>& tree, int chosen, size_t index) {
  const size_t columns = std::min(times.size(), kTimelineColumns);
  return fmt::format(
      R"(<svg class="timeline" data-series="{}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {} {}" )"
      R"(width="100%" style="max-width:{}px" font-family="sans-serif" font-size="12" role="img">{}{}{}{}</svg>)",
      index, kLeft + kWidth + 8, kHeight, kLeft + kWidth + 8, stacked_areas(series, tree, columns),
      bottleneck_band(times, series, tree, columns), chosen_line(series, tree, chosen, columns), axes(times, columns));
}

}  // namespace topdown::html
