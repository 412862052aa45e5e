#include "region/c_report.h"

namespace topdown::region {
namespace {

td_region_node to_c(const NodeValue& node) {
  td_region_node c{};
  c.name = node.name.c_str();
  c.vendor_name = node.vendor_name.c_str();
  c.parent = node.parent.c_str();
  c.level = node.level;
  c.has_fraction = node.fraction.has_value();
  c.fraction = node.fraction.value_or(0.0);
  c.has_slots = node.slots.has_value();
  c.slots = node.slots.value_or(0.0);
  c.over_threshold = node.over_threshold;
  c.bottleneck = node.bottleneck;
  return c;
}

}  // namespace

std::unique_ptr<ReportStorage> make_report(const Session& session) {
  auto storage = std::make_unique<ReportStorage>();
  // Filled first and never changed again: the C structs point into these strings.
  storage->results = session.results();
  const SessionInfo& info = session.info();
  storage->reader_name = info.reader == Reader::Rdpmc ? "rdpmc" : "read";
  storage->method_name = info.method;
  for (const RegionResult& result : storage->results) {
    std::vector<td_region_node>& nodes = storage->c_nodes.emplace_back();
    for (const NodeValue& node : result.nodes) nodes.push_back(to_c(node));
    std::vector<const char*>& warnings = storage->c_warnings.emplace_back();
    for (const std::string& warning : result.warnings) warnings.push_back(warning.c_str());
    td_region_result c{};
    c.name = result.name.c_str();
    c.parent = result.parent.c_str();
    c.depth = result.depth;
    c.calls = result.calls;
    c.dropped_calls = result.dropped_calls;
    c.has_slots = result.slots.has_value();
    c.slots = result.slots.value_or(0.0);
    c.counted_share = result.counted_share;
    c.node_count = nodes.size();
    c.nodes = nodes.data();
    c.warning_count = warnings.size();
    c.warnings = warnings.data();
    storage->c_results.push_back(c);
  }
  storage->region_count = storage->c_results.size();
  storage->regions = storage->c_results.data();
  storage->reader = storage->reader_name.c_str();
  storage->method = storage->method_name.c_str();
  return storage;
}

}  // namespace topdown::region
