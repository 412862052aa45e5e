#pragma once
// The Prometheus text exposition format (version 0.0.4) of a snapshot: a
// pure function, so every series is tested without a server. The series
// are documented in docs/serve.md.
#include <string>
#include <string_view>

#include "serve/snapshot.h"

namespace topdown::serve {

// Content-Type of the format.
inline constexpr std::string_view kExpositionContentType = "text/plain; version=0.0.4; charset=utf-8";

// Every series of `snapshot`, each family with its # HELP and # TYPE lines:
// node ratios (nodes that cannot be trusted in the interval are left out and
// listed with the reason instead), Info metrics, the bottleneck, each
// event's running total and counted share, and the collector's health.
std::string write_exposition(const Snapshot& snapshot);

// The family giving how long the rest of the response took to render.
std::string write_scrape_duration(double seconds);

// A label value as the format writes it: backslash, double quote and line
// feed escaped.
std::string escape_label_value(std::string_view value);

// A sample value as the format writes it: the shortest decimal that reads
// back as the same double, "+Inf", "-Inf" or "NaN".
std::string format_value(double value);

// Why a node's value is left out of topdown_node_ratio in an interval, or
// empty when it is exported: "idle" (its scope ran nothing), "not_available",
// "unreliable" (counted too little of the interval), "out_of_range" or
// "approximate".
std::string_view omission_reason(const eval::NodeResult& node, bool scope_idle = false);

}  // namespace topdown::serve
