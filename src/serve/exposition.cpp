#include "serve/exposition.h"

#include <fmt/compile.h>
#include <fmt/format.h>

#include <cmath>
#include <unordered_map>
#include <vector>

#include "eval/bottleneck.h"

namespace topdown::serve {
namespace {

// escape_label_value and format_value, appended to `out`.
void append_escaped(std::string& out, std::string_view value) {
  size_t plain = 0;  // the start of what needs no escape
  for (size_t i = 0; i < value.size(); ++i) {
    const char c = value[i];
    if (c != '\\' && c != '"' && c != '\n') continue;
    out.append(value.data() + plain, i - plain);
    out += '\\';
    out += c == '\n' ? 'n' : c;
    plain = i + 1;
  }
  out.append(value.data() + plain, value.size() - plain);
}

void append_value(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "NaN";
  } else if (std::isinf(value)) {
    out += value > 0 ? "+Inf" : "-Inf";
  } else if (!std::signbit(value) && value < 1e15 && value == std::floor(value)) {
    // Counts and whole shares, most samples: written as the integers they
    // are, as the shortest form writes them, without its search.
    const fmt::format_int digits(static_cast<unsigned long long>(value));
    out.append(digits.data(), digits.size());
  } else {
    // A format compiled in: no format string parsed per sample.
    char text[32];
    out.append(text, fmt::format_to(text, FMT_COMPILE("{}"), value));
  }
}

// A label as the format writes it, after a comma unless it is the first.
void append_label(std::string& text, std::string_view name, std::string_view value) {
  if (!text.empty()) text += ',';
  text += name;
  text += "=\"";
  append_escaped(text, value);
  text += '"';
}

// One metric family: its header, then its samples; the format wants a
// family's samples together. A scrape of a large machine has some 100,000
// samples, so their labels come as text made once per node and per scope.
class Family {
 public:
  Family(std::string& out, std::string_view name, std::string_view type, std::string_view help)
      : out_(out), name_(name) {
    fmt::format_to(std::back_inserter(out_), "# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
  }

  // `first` and `scope` are labels as append_label writes them; either may be empty.
  void sample(std::string_view first, std::string_view scope, double value) {
    out_ += name_;
    if (!first.empty() || !scope.empty()) {
      out_ += '{';
      out_ += first;
      if (!first.empty() && !scope.empty()) out_ += ',';
      out_ += scope;
      out_ += '}';
    }
    out_ += ' ';
    append_value(out_, value);
    out_ += '\n';
  }

 private:
  std::string& out_;
  std::string_view name_;
};

// What every sample of a snapshot shares, written once: each scope's labels
// with the model, and each node's own labels.
class LabelTexts {
 public:
  explicit LabelTexts(const Snapshot& snapshot) {
    scopes_.reserve(snapshot.scopes.size());
    for (const ScopeResult& scope : snapshot.scopes) {
      std::string text;
      for (const auto& [name, value] : scope.labels) append_label(text, name, value);
      append_label(text, "model", scope.model);
      scopes_.push_back(std::move(text));
    }
  }
  const std::string& scope(size_t index) const { return scopes_[index]; }

  // node, level and parent.
  const std::string& node(const model::Node& node) {
    auto [found, added] = nodes_.try_emplace(&node);
    if (added) {
      append_label(found->second, "node", node.name);
      append_label(found->second, "level", std::to_string(node.level));
      append_label(found->second, "parent", node.parent);
    }
    return found->second;
  }
  // An Info metric's metric and unit.
  const std::string& info(const model::Node& node) {
    auto [found, added] = infos_.try_emplace(&node);
    if (added) {
      append_label(found->second, "metric", node.name);
      append_label(found->second, "unit", node.unit);
    }
    return found->second;
  }
  // event, for the `index`th event of a scope: scopes mostly have the same
  // events in the same order, so the text made for the last scope's is kept
  // while it is the same event.
  const std::string& event(size_t index, const std::shared_ptr<const std::string>& name) {
    if (index >= events_.size()) events_.resize(index + 1);
    auto& [cached, text] = events_[index];
    if (cached != name.get()) {
      cached = name.get();
      text.clear();
      append_label(text, "event", *name);
    }
    return text;
  }

 private:
  std::vector<std::string> scopes_;
  std::unordered_map<const model::Node*, std::string> nodes_;
  std::unordered_map<const model::Node*, std::string> infos_;
  std::vector<std::pair<const std::string*, std::string>> events_;  // name, label
};

void write_nodes(std::string& out, const Snapshot& snapshot, LabelTexts& labels) {
  const auto& scopes = snapshot.scopes;
  Family ratio(out, "topdown_node_ratio", "gauge",
               "Fraction of the node's domain (slots, cycles) in the last interval; nodes that cannot be trusted "
               "in it are in topdown_node_omitted instead");
  for (size_t s = 0; s < scopes.size(); ++s) {
    for (const eval::NodeResult& node : scopes[s].report.evaluation.nodes) {
      if (!node.node->is_info && omission_reason(node, scopes[s].idle).empty()) {
        ratio.sample(labels.node(*node.node), labels.scope(s), *node.value);
      }
    }
  }
  Family share(out, "topdown_node_counted_ratio", "gauge",
               "Smallest share of the last interval the node's events were counted (below 1: multiplexed, "
               "extrapolated)");
  for (size_t s = 0; s < scopes.size(); ++s) {
    for (const eval::NodeResult& node : scopes[s].report.evaluation.nodes) {
      if (!node.node->is_info) share.sample(labels.node(*node.node), labels.scope(s), node.counted_share);
    }
  }
  Family omitted(out, "topdown_node_omitted", "gauge",
                 "1 for each node or Info metric left out in the last interval, with the reason");
  for (size_t s = 0; s < scopes.size(); ++s) {
    for (const eval::NodeResult& node : scopes[s].report.evaluation.nodes) {
      const std::string_view reason = omission_reason(node, scopes[s].idle);
      if (reason.empty()) continue;
      std::string first = labels.node(*node.node);
      append_label(first, "reason", reason);
      omitted.sample(first, labels.scope(s), 1);
    }
  }
  Family bottleneck(out, "topdown_bottleneck", "gauge",
                    "1 for the bottleneck of the last interval: the deepest node over its threshold on the path of "
                    "the largest level-1 node, among the nodes served (none while a level-1 node is omitted)");
  for (size_t s = 0; s < scopes.size(); ++s) {
    // A node left out is not evidence: the bottleneck comes from those served.
    const std::vector<eval::NodeResult>& nodes = scopes[s].report.evaluation.nodes;
    const std::vector<size_t> path = eval::bottleneck_path(
        nodes, [&](const eval::NodeResult& r) { return omission_reason(r, scopes[s].idle).empty(); });
    if (!path.empty()) {
      const eval::NodeResult* node = &nodes[path.back()];
      std::string first;
      append_label(first, "node", node->node->name);
      append_label(first, "level", std::to_string(node->node->level));
      bottleneck.sample(first, labels.scope(s), 1);
    }
  }
  Family info(out, "topdown_info_value", "gauge", "An Info metric of the model in the last interval, in its unit");
  for (size_t s = 0; s < scopes.size(); ++s) {
    for (const eval::NodeResult& node : scopes[s].report.evaluation.nodes) {
      if (node.node->is_info && omission_reason(node, scopes[s].idle).empty()) {
        info.sample(labels.info(*node.node), labels.scope(s), *node.value);
      }
    }
  }
}

void write_events(std::string& out, const Snapshot& snapshot, LabelTexts& labels) {
  const auto& scopes = snapshot.scopes;
  Family total(out, "topdown_events_total", "counter",
               "Each event's count since counting started (scaled where it was multiplexed)");
  for (size_t s = 0; s < scopes.size(); ++s) {
    const std::vector<ScopeResult::Event>& events = scopes[s].events;
    for (size_t e = 0; e < events.size(); ++e) {
      if (events[e].total) total.sample(labels.event(e, events[e].name), labels.scope(s), *events[e].total);
    }
  }
  Family share(out, "topdown_event_counted_ratio", "gauge",
               "Share of the last interval each event was counted (below 1: multiplexed)");
  for (size_t s = 0; s < scopes.size(); ++s) {
    const std::vector<ScopeResult::Event>& events = scopes[s].events;
    for (size_t e = 0; e < events.size(); ++e) {
      share.sample(labels.event(e, events[e].name), labels.scope(s), events[e].counted_share);
    }
  }
}

void write_health(std::string& out, const Snapshot& snapshot) {
  const Health& health = snapshot.health;
  Family(out, "topdown_intervals_total", "counter", "Counting intervals completed")
      .sample({}, {}, static_cast<double>(health.intervals));
  Family(out, "topdown_lost_intervals_total", "counter",
         "Interval timer periods that passed without an interval of their own (counting fell behind)")
      .sample({}, {}, static_cast<double>(health.lost_intervals));
  Family(out, "topdown_errors_total", "counter", "Intervals that could not be evaluated")
      .sample({}, {}, static_cast<double>(health.errors));
  Family(out, "topdown_interval_seconds", "gauge", "Length of the last interval").sample({}, {}, snapshot.interval_s);
  Family(out, "topdown_interval_end_seconds", "gauge", "End of the last interval, seconds since counting started")
      .sample({}, {}, snapshot.time_s);
}

}  // namespace

std::string_view omission_reason(const eval::NodeResult& node, bool scope_idle) {
  if (!node.value || !std::isfinite(*node.value)) return scope_idle ? "idle" : "not_available";
  if (node.unreliable) return "unreliable";
  if (node.out_of_range) return "out_of_range";
  if (node.approximate) return "approximate";
  return {};
}

std::string escape_label_value(std::string_view value) {
  std::string escaped;
  append_escaped(escaped, value);
  return escaped;
}

std::string format_value(double value) {
  std::string text;
  append_value(text, value);
  return text;
}

std::string write_exposition(const Snapshot& snapshot) {
  // Room for every sample at a typical length, so that a large scrape is
  // written without moving.
  size_t samples = 16;
  for (const ScopeResult& scope : snapshot.scopes) {
    samples += 3 * scope.report.evaluation.nodes.size() + 2 * scope.events.size();
  }
  std::string out;
  out.reserve(samples * 128);
  LabelTexts labels(snapshot);
  write_nodes(out, snapshot, labels);
  write_events(out, snapshot, labels);
  write_health(out, snapshot);
  return out;
}

std::string write_scrape_duration(double seconds) {
  std::string out;
  Family(out, "topdown_scrape_duration_seconds", "gauge", "Time taken to render this response").sample({}, {}, seconds);
  return out;
}

}  // namespace topdown::serve
