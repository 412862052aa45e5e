#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "html/draw.h"
#include "html/escape.h"
#include "report/value_text.h"

namespace topdown::html {
namespace {

constexpr double kWidth = 1000;
constexpr double kRowHeight = 34;
constexpr double kCharWidth = 6.8;  // of the 12px label font, on average
constexpr double kFadedOpacity = 0.35;

struct Box {
  double x = 0;
  double width = 0;
};

double drawn_share(const eval::NodeResult& node) { return node.value ? std::clamp(*node.value, 0.0, 1.0) : 0.0; }

std::string tooltip(const eval::NodeResult& node, const model::Dependencies& dependencies) {
  const model::Node& n = *node.node;
  std::string text = n.name;
  if (!n.vendor_name.empty() && n.vendor_name != n.name) text += " (" + n.vendor_name + ")";
  text += "\nvalue: " + shown_value(node) + (n.domain.empty() ? "" : " of " + n.domain);
  if (node.out_of_range) text += fmt::format(" (raw {:.1f}%, drawn clamped)", *node.value * 100);
  if (node.bottleneck) text += "  <== bottleneck";
  if (n.threshold) {
    text += "\nthreshold: " + n.threshold->to_string() + (node.over_threshold ? "  (over)" : "  (under)");
  }
  const std::set<std::string>& events = dependencies.events_of(n.name);
  if (!events.empty()) {
    text += "\nevents:";
    for (const auto& event : events) text += " " + event;
  }
  text += node.counted_share < 1 ? fmt::format("\ncounted {:.0f}% of the time", node.counted_share * 100)
                                 : "\ncounted all the time";
  text += "\nstatus: " + report::status_of(node);
  if (!node.missing_events.empty()) {
    text += "\nnot counted:";
    for (const auto& event : node.missing_events) text += " " + event;
  }
  if (!n.advice.empty()) text += "\nadvice: " + n.advice;
  return text;
}

std::string label(const eval::NodeResult& node, double width) {
  std::string value = shown_value(node);
  std::string full = node.node->name + " " + value;
  if (static_cast<double>(full.size()) * kCharWidth + 6 <= width) return full;
  if (static_cast<double>(value.size()) * kCharWidth + 6 <= width) return value;
  return "";
}

std::string box_svg(const eval::NodeResult& node, const Box& box, const model::Dependencies& dependencies) {
  const double y = (node.node->level - 1) * kRowHeight;
  std::string classes = "node";
  if (node.on_bottleneck_path) classes += " on-path";
  if (node.bottleneck) classes += " bottleneck";
  if (!node.over_threshold) classes += " faded";
  if (node.unreliable) classes += " unreliable";
  if (node.out_of_range) classes += " clamped";
  std::string out = fmt::format(R"(<g class="{}" data-node="{}" data-value="{}" data-level="{}"{}><title>{}</title>)",
                                classes, escape(node.node->name), escape(shown_value(node)), node.node->level,
                                node.over_threshold ? "" : fmt::format(R"( opacity="{}")", kFadedOpacity),
                                escape(tooltip(node, dependencies)));
  // The bottleneck's path is outlined; the bottleneck itself more so.
  const std::string outline = node.bottleneck           ? R"( stroke="#000" stroke-width="3")"
                              : node.on_bottleneck_path ? R"( stroke="#000" stroke-width="2")"
                                                        : R"( stroke="#fff" stroke-width="1")";
  out += fmt::format(R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="{}"{}/>)", box.x, y + 1,
                     box.width, kRowHeight - 2, area_color(node.node->area), outline);
  if (node.unreliable) {
    out += fmt::format(R"svg(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="url(#unreliable)"/>)svg",
                       box.x, y + 1, box.width, kRowHeight - 2);
  }
  if (node.out_of_range) {
    const double right = box.x + box.width;
    out += fmt::format(R"(<path d="M{:.1f},{:.1f}h-9l9,9z" fill="#c00"/>)", right, y + 1);
  }
  const std::string text = label(node, box.width);
  if (!text.empty()) {
    out += fmt::format(R"(<text x="{:.1f}" y="{:.1f}">{}</text>)", box.x + 4, y + kRowHeight / 2 + 4, escape(text));
  }
  return out + "</g>";
}

}  // namespace

std::string icicle_svg(const eval::Evaluation& evaluation, const model::Dependencies& dependencies) {
  std::map<std::string, std::vector<const eval::NodeResult*>, std::less<>> children;
  int depth = 1;
  for (const auto& node : evaluation.nodes) {
    if (node.node->is_info) continue;
    children[node.node->parent].push_back(&node);
    depth = std::max(depth, node.node->level);
  }
  std::string boxes;
  // Breadth-first: each parent's span is known before its children are placed.
  std::vector<std::pair<std::string, Box>> spans = {{"", Box{0, kWidth}}};
  for (size_t next = 0; next < spans.size(); ++next) {
    const auto [parent, span] = spans[next];
    auto found = children.find(parent);
    if (found == children.end()) continue;
    double wanted = 0;
    for (const auto* child : found->second) wanted += drawn_share(*child) * kWidth;
    const double scale = wanted > span.width ? span.width / wanted : 1.0;
    double x = span.x;
    for (const auto* child : found->second) {
      const Box box{x, drawn_share(*child) * kWidth * scale};
      boxes += box_svg(*child, box, dependencies);
      spans.emplace_back(child->node->name, box);
      x += box.width;
    }
  }
  const double height = depth * kRowHeight;
  return fmt::format(R"(<svg class="icicle" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {} {}" width="100%" )"
                     R"(font-family="sans-serif" font-size="12" role="img">{}</svg>)",
                     kWidth, height, boxes);
}

std::string shown_value(const eval::NodeResult& node) {
  std::string text = report::value_text(node) + report::marks(node);
  if (node.node->is_info && node.value && !node.node->unit.empty()) text += " " + node.node->unit;
  return text;
}

std::string area_legend() {
  constexpr std::string_view kAreas[][2] = {
      {"FE", "Frontend"},           {"BAD", "Bad Speculation"}, {"BE", "Backend"}, {"BE/Mem", "Backend: Memory"},
      {"BE/Core", "Backend: Core"}, {"RET", "Retiring"}};
  std::string out;
  for (const auto& [area, name] : kAreas) {
    out += fmt::format(R"(<span><i style="background:{}"></i>{}</span>)", area_color(area), name);
  }
  return out;
}

// Its area's colour, else (a model without areas) one of a few by its place.
std::string level1_color(const model::Node& node, size_t index) {
  constexpr std::string_view kColors[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1"};
  if (!node.area.empty() && area_color(node.area) != area_color("")) return area_color(node.area);
  return std::string(kColors[index % std::size(kColors)]);
}

std::string area_color(std::string_view area) {
  static const std::map<std::string, std::string, std::less<>> kColors = {
      {"FE", "#5b8fd9"},      {"BAD", "#e0605e"}, {"BE", "#f0a23b"},  {"BE/Mem", "#e08a2e"},
      {"BE/Core", "#e6c84a"}, {"RET", "#5fae57"}, {"SMT", "#9a9a9a"},
  };
  auto found = kColors.find(area);
  return found == kColors.end() ? "#b8b8b8" : found->second;
}

}  // namespace topdown::html
