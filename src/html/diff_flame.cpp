// The differential TMA flame graph of a comparison of two recordings.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include "html/comparison.h"
#include "html/draw.h"
#include "html/escape.h"

namespace topdown::html {
namespace {

// The change, in points, at which a frame takes the full red or blue.
constexpr double kSaturation = 20;
// Gone frames listed under the graph, the heaviest in A first.
constexpr size_t kMaxGone = 20;

using Rgb = std::array<double, 3>;
constexpr Rgb kNoChange = {232, 232, 232};
constexpr Rgb kGrew = {214, 39, 40};
constexpr Rgb kShrank = {31, 119, 180};

// The script's colour() does the same: grey for no change, red as the
// node's share grew, blue as it shrank, full at kSaturation points; a
// lighter grey where no change is known.
constexpr const char* kChangeUnknown = "rgb(221,221,221)";

std::string diff_colour(double change) {
  const double t = std::clamp(change / kSaturation, -1.0, 1.0);
  const Rgb& to = t > 0 ? kGrew : kShrank;
  std::array<long, 3> rgb{};
  for (size_t i = 0; i < 3; ++i) rgb[i] = std::lround(kNoChange[i] + (to[i] - kNoChange[i]) * std::abs(t));
  return fmt::format("rgb({},{},{})", rgb[0], rgb[1], rgb[2]);
}

std::string frame_name(const profile::FlameFrame& frame) {
  const profile::Function& function = frame.result.function;
  return function.module.empty() ? function.name : function.name + " [" + function.module + "]";
}

// Each frame's path from the root, by which A's and B's frames are matched.
std::vector<std::string> frame_paths(const profile::FlameGraph& flame) {
  std::vector<std::string> paths(flame.frames.size());
  for (size_t f = 0; f < flame.frames.size(); ++f) {
    const profile::FlameFrame& frame = flame.frames[f];
    paths[f] = (frame.parent == profile::kNoFrame ? "" : paths[frame.parent] + '\n') + frame_name(frame);
  }
  return paths;
}

std::optional<double> value_of(const profile::FlameFrame& frame, const std::string& node) {
  const eval::NodeResult* result = frame.result.evaluation.find(node);
  return result ? result->value : std::nullopt;
}

// B - A in points, when both frames have the node's value.
std::optional<double> change_of(const profile::FlameFrame* a, const profile::FlameFrame& b, const std::string& node) {
  if (!a) return std::nullopt;
  const auto before = value_of(*a, node);
  const auto after = value_of(b, node);
  if (!before || !after) return std::nullopt;
  return (*after - *before) * 100;
}

std::string percent(const std::optional<double>& value) { return value ? fmt::format("{:.1f}%", *value * 100) : "n/a"; }

std::string points(const std::optional<double>& change) {
  return change ? fmt::format("{:+.1f} pt", std::abs(*change) < 0.05 ? 0.0 : *change) : "n/a";
}

std::string tooltip(const profile::FlameFrame* a, const profile::FlameFrame& b, const FlameDiff& flame,
                    const eval::NodeResult* colouring) {
  const std::string clock = flame.clock_event.empty() ? "clockticks" : flame.clock_event;
  std::string text = frame_name(b);
  const double b_share = b.result.function.share;
  if (a) {
    text += fmt::format("\nA: {:.1f}% of the {}, B: {:.1f}% ({})", a->result.function.share * 100, clock, b_share * 100,
                        points((b_share - a->result.function.share) * 100));
  } else {
    text += fmt::format("\nnew in B: {:.1f}% of the {} (A has no such call path)", b_share * 100, clock);
  }
  if (colouring) {
    text += "\ncolour: " + colouring->node->name + " " + points(change_of(a, b, colouring->node->name));
  }
  text += "\nnode: A -> B (change)";
  for (const model::Node* node : flame.tree) {
    text += fmt::format("\n{}{} {} -> {} ({})", std::string(2 * static_cast<size_t>(node->level), ' '), node->name,
                        a ? percent(value_of(*a, node->name)) : "-", percent(value_of(b, node->name)),
                        points(change_of(a, b, node->name)));
  }
  return text;
}

std::string frame_svg(const FlameDiff& flame, size_t f, const profile::FlameFrame* a, const FlameSpan& span,
                      uint32_t depth_max) {
  const profile::FlameFrame& frame = flame.b.frames[f];
  const eval::NodeResult* largest = largest_level1(frame.result.evaluation);
  const double x = span.x * kFlameWidth;
  const double width = span.width * kFlameWidth;
  const double y = static_cast<double>(depth_max - frame.depth) * kFlameFrameHeight;
  const std::string& name = frame.result.function.name;
  std::string change_text;                            // data-change: empty where not known
  std::string fill = a ? kChangeUnknown : "#c5b0d5";  // a frame only B has is coloured apart
  if (largest) {
    if (const std::optional<double> change = change_of(a, frame, largest->node->name)) {
      change_text = fmt::format("{:.1f}", *change);
      fill = diff_colour(*change);
    }
  }
  return fmt::format(
      R"(<g class="frame{}" data-frame="{}" data-name="{}" data-node="{}" data-change="{}"><title>{}</title>)"
      R"(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{}" fill="{}"/><text x="{:.1f}" y="{:.1f}">{}</text></g>)",
      a ? "" : " new", f, escape(name), largest ? class_name(largest->node->name) : "", change_text,
      escape(tooltip(a, frame, flame, largest)), x, y, width, kFlameFrameHeight - 1, fill, x + 3,
      y + kFlameFrameHeight - 5, escape(flame_label(name, width)));
}

// The frames of A whose call path B does not have, under a frame B has (a
// gone frame's own children are gone with it), heaviest first.
std::string gone_list(const FlameDiff& flame, const std::vector<std::string>& a_paths,
                      const std::map<std::string, uint32_t, std::less<>>& b_index) {
  std::vector<size_t> gone;
  for (size_t f = 0; f < flame.a.frames.size(); ++f) {
    const uint32_t parent = flame.a.frames[f].parent;
    if (b_index.count(a_paths[f]) == 0 && parent != profile::kNoFrame && b_index.count(a_paths[parent]) > 0) {
      gone.push_back(f);
    }
  }
  if (gone.empty()) return R"(<p class="note">No call path of A is gone from B.</p>)";
  std::stable_sort(gone.begin(), gone.end(), [&](size_t x, size_t y) {
    return flame.a.frames[x].result.function.share > flame.a.frames[y].result.function.share;
  });
  std::string out = R"(<p class="note">Gone from A (call paths B does not have):</p><ul class="gone">)";
  for (size_t i = 0; i < gone.size() && i < kMaxGone; ++i) {
    const profile::FlameFrame& frame = flame.a.frames[gone[i]];
    std::string path = a_paths[gone[i]];
    std::replace(path.begin(), path.end(), '\n', ';');
    out += fmt::format(R"(<li data-name="{}">{} ({:.1f}% of A's clockticks)</li>)", escape(frame.result.function.name),
                       escape(path), frame.result.function.share * 100);
  }
  if (gone.size() > kMaxGone) out += fmt::format("<li>and {} more</li>", gone.size() - kMaxGone);
  return out + "</ul>";
}

constexpr std::string_view kScript = R"JS(
(function () {
  'use strict';
  var select = document.getElementById('diff-flame-colour');
  if (!select) return;
  var data = JSON.parse(document.getElementById('diff-flame-data').textContent);
  var grey = [232, 232, 232], grew = [214, 39, 40], shrank = [31, 119, 180];
  function colour(change) {  // diff_flame.cpp's diff_colour
    if (change === null) return 'rgb(221,221,221)';
    var t = Math.max(-1, Math.min(1, change / data.saturation)), to = t > 0 ? grew : shrank;
    return 'rgb(' + grey.map(function (g, i) { return Math.round(g + (to[i] - g) * Math.abs(t)); }).join(',') + ')';
  }
  select.addEventListener('change', function () {
    document.querySelectorAll('svg.diff-flame g.frame').forEach(function (g) {
      var frame = data.frames[Number(g.dataset.frame)];
      if (frame.new) return;
      var node = select.value === '' ? frame.largest : Number(select.value);
      var change = node === null ? null : frame.changes[node];
      g.querySelector('rect').setAttribute('fill', colour(change));
      g.dataset.node = node === null ? '' : data.nodes[node];
      g.dataset.change = change === null ? '' : change.toFixed(1);
    });
  });
})();
)JS";

}  // namespace

std::string diff_flame_section(const FlameDiff& flame) {
  const std::vector<std::string> a_paths = frame_paths(flame.a);
  const std::vector<std::string> b_paths = frame_paths(flame.b);
  std::map<std::string, uint32_t, std::less<>> a_index;
  std::map<std::string, uint32_t, std::less<>> b_index;
  for (size_t f = 0; f < a_paths.size(); ++f) a_index.emplace(a_paths[f], static_cast<uint32_t>(f));
  for (size_t f = 0; f < b_paths.size(); ++f) b_index.emplace(b_paths[f], static_cast<uint32_t>(f));

  std::string out = fmt::format(
      R"(<section id="diff-flame"><h2>Differential flame graph</h2><p class="note">B's {}: each frame as wide )"
      R"(as its {} in B, coloured by the change from A of its largest level-1 node's share of its slots (or of )"
      R"(the node chosen below): red where it grew, blue where it shrank, full at &plusmn;{:g} points. Frames new )"
      R"(in B are purple with a dashed edge. Hover for the frame's tree in A and B.</p>)",
      flame.b.call_stacks ? "call stacks merged from the outermost frame (at the bottom) in"
                          : "functions (the recording has no call stacks: record with -g)",
      escape(flame.clock_event.empty() ? "clockticks" : flame.clock_event), kSaturation);
  out += R"(<p><label>colour by the change in <select id="diff-flame-colour"><option value="">)"
         R"(largest level-1 node</option>)";
  for (size_t n = 0; n < flame.tree.size(); ++n) {
    out +=
        fmt::format(R"(<option value="{}">{}{} share</option>)", n,
                    std::string(2 * static_cast<size_t>(flame.tree[n]->level - 1), '.'), escape(flame.tree[n]->name));
  }
  out += "</select></label></p>";

  const std::vector<FlameSpan> spans = flame_layout(flame.b);
  uint32_t depth_max = 0;
  for (const auto& frame : flame.b.frames) depth_max = std::max(depth_max, frame.depth);
  std::string frames;
  nlohmann::json data_frames = nlohmann::json::array();
  for (size_t f = 0; f < flame.b.frames.size(); ++f) {
    const auto match = a_index.find(b_paths[f]);
    const profile::FlameFrame* a = match == a_index.end() ? nullptr : &flame.a.frames[match->second];
    const profile::FlameFrame& b = flame.b.frames[f];
    frames += frame_svg(flame, f, a, spans[f], depth_max);
    nlohmann::json changes = nlohmann::json::array();
    nlohmann::json largest;
    const eval::NodeResult* dominant = largest_level1(b.result.evaluation);
    for (size_t n = 0; n < flame.tree.size(); ++n) {
      const auto change = change_of(a, b, flame.tree[n]->name);
      changes.push_back(change ? nlohmann::json(std::round(*change * 100) / 100) : nlohmann::json());
      if (dominant && dominant->node->name == flame.tree[n]->name) largest = n;
    }
    data_frames.push_back({{"new", a == nullptr}, {"largest", largest}, {"changes", std::move(changes)}});
  }
  nlohmann::json names = nlohmann::json::array();
  for (const model::Node* node : flame.tree) names.push_back(node->name);
  const double height = (depth_max + 1) * kFlameFrameHeight;
  out += fmt::format(R"(<svg class="diff-flame" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {} {}" )"
                     R"(width="100%" font-family="sans-serif" font-size="11" role="img">{}</svg>)",
                     kFlameWidth, height, frames);
  out += gone_list(flame, a_paths, b_index);
  const nlohmann::json data = {{"saturation", kSaturation}, {"nodes", names}, {"frames", std::move(data_frames)}};
  out += R"(<script type="application/json" id="diff-flame-data">)" + script_json(data) + "</script>";
  return out + "<script>" + std::string(kScript) + "</script></section>";
}

}  // namespace topdown::html
