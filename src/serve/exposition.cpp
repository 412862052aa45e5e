#include "serve/exposition.h"

#include <fmt/format.h>

#include <cmath>

namespace topdown::serve {
namespace {

// One metric family: its header, then its samples; the format wants a
// family's samples together.
class Family {
 public:
  Family(std::string& out, std::string_view name, std::string_view type, std::string_view help)
      : out_(out), name_(name) {
    fmt::format_to(std::back_inserter(out_), "# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
  }

  void sample(const Labels& labels, double value) {
    out_ += name_;
    if (!labels.empty()) {
      out_ += '{';
      for (size_t i = 0; i < labels.size(); ++i) {
        if (i > 0) out_ += ',';
        fmt::format_to(std::back_inserter(out_), "{}=\"{}\"", labels[i].first, escape_label_value(labels[i].second));
      }
      out_ += '}';
    }
    out_ += ' ';
    out_ += format_value(value);
    out_ += '\n';
  }

 private:
  std::string& out_;
  std::string_view name_;
};

// `first`, then the scope's labels, then the model.
Labels with_scope(Labels first, const ScopeResult& scope, const std::string& model) {
  first.insert(first.end(), scope.labels.begin(), scope.labels.end());
  first.emplace_back("model", model);
  return first;
}

Labels node_labels(const eval::NodeResult& result) {
  const model::Node& node = *result.node;
  return {{"node", node.name}, {"level", std::to_string(node.level)}, {"parent", node.parent}};
}

void write_nodes(std::string& out, const Snapshot& snapshot) {
  Family ratio(out, "topdown_node_ratio", "gauge",
               "Fraction of the node's domain (slots, cycles) in the last interval; nodes that cannot be trusted "
               "in it are in topdown_node_omitted instead");
  for (const ScopeResult& scope : snapshot.scopes) {
    for (const eval::NodeResult& node : scope.report.evaluation.nodes) {
      if (!node.node->is_info && omission_reason(node, scope.idle).empty()) {
        ratio.sample(with_scope(node_labels(node), scope, snapshot.model), *node.value);
      }
    }
  }
  Family share(out, "topdown_node_counted_ratio", "gauge",
               "Smallest share of the last interval the node's events were counted (below 1: multiplexed, "
               "extrapolated)");
  for (const ScopeResult& scope : snapshot.scopes) {
    for (const eval::NodeResult& node : scope.report.evaluation.nodes) {
      if (!node.node->is_info) share.sample(with_scope(node_labels(node), scope, snapshot.model), node.counted_share);
    }
  }
  Family omitted(out, "topdown_node_omitted", "gauge",
                 "1 for each node or Info metric left out in the last interval, with the reason");
  for (const ScopeResult& scope : snapshot.scopes) {
    for (const eval::NodeResult& node : scope.report.evaluation.nodes) {
      const std::string_view reason = omission_reason(node, scope.idle);
      if (reason.empty()) continue;
      Labels labels = node_labels(node);
      labels.emplace_back("reason", std::string(reason));
      omitted.sample(with_scope(std::move(labels), scope, snapshot.model), 1);
    }
  }
  Family bottleneck(out, "topdown_bottleneck", "gauge",
                    "1 for the bottleneck of the last interval: the deepest node over its threshold on the path of "
                    "the largest level-1 node");
  for (const ScopeResult& scope : snapshot.scopes) {
    if (const eval::NodeResult* node = scope.report.evaluation.bottleneck()) {
      bottleneck.sample(
          with_scope({{"node", node->node->name}, {"level", std::to_string(node->node->level)}}, scope, snapshot.model),
          1);
    }
  }
  Family info(out, "topdown_info_value", "gauge", "An Info metric of the model in the last interval, in its unit");
  for (const ScopeResult& scope : snapshot.scopes) {
    for (const eval::NodeResult& node : scope.report.evaluation.nodes) {
      if (node.node->is_info && omission_reason(node, scope.idle).empty()) {
        info.sample(with_scope({{"metric", node.node->name}, {"unit", node.node->unit}}, scope, snapshot.model),
                    *node.value);
      }
    }
  }
}

void write_events(std::string& out, const Snapshot& snapshot) {
  Family total(out, "topdown_events_total", "counter",
               "Each event's count since counting started (scaled where it was multiplexed)");
  for (const ScopeResult& scope : snapshot.scopes) {
    for (const auto& [event, value] : scope.event_totals) {
      total.sample(with_scope({{"event", event}}, scope, snapshot.model), value);
    }
  }
  Family share(out, "topdown_event_counted_ratio", "gauge",
               "Share of the last interval each event was counted (below 1: multiplexed)");
  for (const ScopeResult& scope : snapshot.scopes) {
    for (const auto& [key, count] : scope.report.sample.events) {
      if (key.group == 0)
        share.sample(with_scope({{"event", key.event}}, scope, snapshot.model), count.running_share());
    }
  }
}

void write_health(std::string& out, const Snapshot& snapshot) {
  const Health& health = snapshot.health;
  Family(out, "topdown_intervals_total", "counter", "Counting intervals completed")
      .sample({}, static_cast<double>(health.intervals));
  Family(out, "topdown_lost_intervals_total", "counter",
         "Interval timer periods that passed without an interval of their own (counting fell behind)")
      .sample({}, static_cast<double>(health.lost_intervals));
  Family(out, "topdown_errors_total", "counter", "Intervals that could not be evaluated")
      .sample({}, static_cast<double>(health.errors));
  Family(out, "topdown_interval_seconds", "gauge", "Length of the last interval").sample({}, snapshot.interval_s);
  Family(out, "topdown_interval_end_seconds", "gauge", "End of the last interval, seconds since counting started")
      .sample({}, snapshot.time_s);
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
  escaped.reserve(value.size());
  for (const char c : value) {
    if (c == '\\') {
      escaped += "\\\\";
    } else if (c == '"') {
      escaped += "\\\"";
    } else if (c == '\n') {
      escaped += "\\n";
    } else {
      escaped += c;
    }
  }
  return escaped;
}

std::string format_value(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  return fmt::format("{}", value);
}

std::string write_exposition(const Snapshot& snapshot) {
  std::string out;
  out.reserve(4096);
  write_nodes(out, snapshot);
  write_events(out, snapshot);
  write_health(out, snapshot);
  return out;
}

std::string write_scrape_duration(double seconds) {
  std::string out;
  Family(out, "topdown_scrape_duration_seconds", "gauge", "Time taken to render this response").sample({}, seconds);
  return out;
}

}  // namespace topdown::serve
