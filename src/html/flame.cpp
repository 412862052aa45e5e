#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "html/draw.h"
#include "html/escape.h"

namespace topdown::html {
namespace {

constexpr double kWidth = kFlameWidth;
constexpr double kFrameHeight = kFlameFrameHeight;
constexpr double kCharWidth = 6.6;  // of the 11px label font, on average
using Span = FlameSpan;

}  // namespace

std::vector<FlameSpan> flame_layout(const profile::FlameGraph& flame) {
  std::vector<Span> spans(flame.frames.size());
  const double root = flame.frames.front().result.function.clock;
  spans[0] = {0, root > 0 ? 1.0 : 0.0};
  for (size_t f = 0; f < flame.frames.size(); ++f) {
    double x = spans[f].x;
    for (uint32_t child : flame.frames[f].children) {
      const double width = root > 0 ? flame.frames[child].result.function.clock / root : 0;
      spans[child] = {x, width};
      x += width;
    }
  }
  return spans;
}

const eval::NodeResult* largest_level1(const eval::Evaluation& evaluation) {
  const eval::NodeResult* largest = nullptr;
  for (const auto& node : evaluation.nodes) {
    if (node.node->is_info || node.node->level != 1 || !node.value) continue;
    if (!largest || *node.value > *largest->value) largest = &node;
  }
  return largest;
}

std::string class_name(std::string_view name) {
  std::string out;
  for (char c : name) out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' ? c : '_';
  return out;
}

namespace {

// The frame's tree in short: its share, level 1 and the bottleneck's path.
std::string tooltip(const profile::FlameFrame& frame, const std::string& clock_event) {
  const profile::Function& function = frame.result.function;
  std::string text = function.name + (function.module.empty() ? "" : " [" + function.module + "]");
  text += fmt::format("\n{:.1f}% of the {}, {} samples", function.share * 100,
                      clock_event.empty() ? "clockticks" : clock_event, function.samples);
  const eval::Evaluation& evaluation = frame.result.evaluation;
  for (const auto& node : evaluation.nodes) {
    if (!node.node->is_info && node.node->level == 1) text += "\n  " + node.node->name + " " + shown_value(node);
  }
  std::string path;
  for (const auto& node : evaluation.nodes) {
    if (node.on_bottleneck_path || node.bottleneck) {
      path += (path.empty() ? "" : " > ") + node.node->name + " " + shown_value(node);
    }
  }
  text += path.empty() ? "\nno bottleneck" : "\nbottleneck: " + path;
  return text;
}

constexpr size_t kLeastCut = 8;

}  // namespace

std::string flame_label(const std::string& name, double width) {
  const auto room = static_cast<size_t>(std::max(0.0, (width - 6) / kCharWidth));
  const auto characters = static_cast<size_t>(
      std::count_if(name.begin(), name.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
  if (characters <= room) return name;
  return room >= kLeastCut ? elide_middle(name, room) : "";
}

namespace {

std::string frame_svg(const profile::FlameGraph& flame, size_t f, const Span& span, uint32_t depth_max,
                      const std::string& clock_event) {
  const profile::FlameFrame& frame = flame.frames[f];
  const eval::NodeResult* dominant = largest_level1(frame.result.evaluation);
  const double x = span.x * kWidth;
  const double width = span.width * kWidth;
  const double y = static_cast<double>(depth_max - frame.depth) * kFrameHeight;
  const double opacity = dominant ? 0.3 + 0.7 * std::clamp(*dominant->value, 0.0, 1.0) : 1.0;
  const std::string& name = frame.result.function.name;
  std::string out =
      fmt::format(R"(<g class="frame dominant-{}{}" data-frame="{}" data-name="{}"><title>{}</title>)"
                  R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{}" fill-opacity="{:.2f}"/>)",
                  dominant ? class_name(dominant->node->name) : "none", name == profile::kOtherFrame ? " other" : "", f,
                  escape(name), escape(tooltip(frame, clock_event)), x, y, width, kFrameHeight - 1, opacity);
  return out + fmt::format(R"(<text x="{:.1f}" y="{:.1f}">{}</text></g>)", x + 3, y + kFrameHeight - 5,
                           escape(flame_label(name, width)));
}

}  // namespace

std::string flame_section(const profile::FlameGraph& flame, const std::vector<const model::Node*>& tree,
                          const std::string& clock_event, std::string_view id_prefix) {
  std::string out = fmt::format(R"(<section id="{}flame"><h2>Flame graph</h2><p class="note">)", id_prefix);
  out += flame.call_stacks
             ? "The call stacks merged from the outermost frame (at the bottom) in: each frame as wide as the "
               "clockticks of the samples under it, coloured by its largest level-1 node, the more opaque the "
               "larger that node's share of its slots. Hover for a frame's tree in short, click to zoom (the "
               "bottom frame zooms out)."
             : "The recording has no call stacks (record with -g or --call-graph dwarf): one level of the "
               "functions the samples landed in, each as wide as its clockticks, coloured by its largest level-1 "
               "node. Hover for a function's tree in short, click to zoom.";
  out += "</p>";
  if (flame.merged > 0) {
    out += fmt::format(R"(<p class="note">{} frames under {:g}% of the clockticks are merged into [other].</p>)",
                       flame.merged, flame.min_share * 100);
  }
  out += fmt::format(R"(<p><label>search <input id="{0}flame-search" type="search" placeholder="function name">)"
                     R"(</label> <span id="{0}flame-matched"></span> <label>colour by <select id="{0}flame-colour">)"
                     R"(<option value="">largest level-1 node</option>)",
                     id_prefix);
  for (size_t n = 0; n < tree.size(); ++n) {
    out += fmt::format(R"(<option value="{}">{}{} share</option>)", n,
                       std::string(2 * static_cast<size_t>(tree[n]->level - 1), '.'), escape(tree[n]->name));
  }
  out += "</select></label></p>";
  std::string legend = R"(<p class="legend">)";
  std::string style;
  size_t index = 0;
  for (const model::Node* node : tree) {
    if (node->level != 1) continue;
    const std::string colour = level1_color(*node, index++);
    legend += fmt::format(R"(<span><i style="background:{}"></i>{}</span>)", colour, escape(node->name));
    style += fmt::format("svg.flame g.dominant-{} rect{{fill:{}}}", class_name(node->name), colour);
  }
  out += legend + "<span>[other]: frames merged, grey</span></p><style>" + style + "</style>";

  const std::vector<Span> spans = flame_layout(flame);
  uint32_t depth_max = 0;
  for (const auto& frame : flame.frames) depth_max = std::max(depth_max, frame.depth);
  std::string frames;
  for (size_t f = 0; f < flame.frames.size(); ++f) frames += frame_svg(flame, f, spans[f], depth_max, clock_event);
  const double height = (depth_max + 1) * kFrameHeight;
  out += fmt::format(R"(<svg class="flame" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {} {}" width="100%" )"
                     R"(font-family="sans-serif" font-size="11" role="img">{}</svg>)",
                     kWidth, height, frames);
  return out + "</section>";
}

nlohmann::json flame_data(const profile::FlameGraph& flame, const std::vector<const model::Node*>& tree) {
  const std::vector<Span> spans = flame_layout(flame);
  nlohmann::json frames = nlohmann::json::array();
  for (size_t f = 0; f < flame.frames.size(); ++f) {
    const profile::FlameFrame& frame = flame.frames[f];
    nlohmann::json values = nlohmann::json::array();
    for (const model::Node* node : tree) {
      const eval::NodeResult* result = frame.result.evaluation.find(node->name);
      values.push_back(result && result->value ? nlohmann::json(std::lround(*result->value * 10000.0))
                                               : nlohmann::json());
    }
    frames.push_back({{"name", frame.result.function.name},
                      {"parent", frame.parent == profile::kNoFrame ? nlohmann::json() : nlohmann::json(frame.parent)},
                      {"depth", frame.depth},
                      {"x", spans[f].x},
                      {"width", spans[f].width},
                      {"values", std::move(values)}});
  }
  return {{"width", kWidth}, {"char_width", kCharWidth}, {"least_cut", kLeastCut}, {"frames", std::move(frames)}};
}

}  // namespace topdown::html
