#pragma once
// A small hand-built model for tests of the stages after the loader: two
// level-1 nodes that sum to 1, children, an Info metric, and an identity.
#include "model/model.h"

namespace topdown::testing {

inline model::Node make_node(std::string name, std::string parent, int level, const std::string& formula,
                             const std::string& threshold = "") {
  model::Node node;
  node.name = std::move(name);
  node.parent = std::move(parent);
  node.level = level;
  node.is_info = level == 0;
  node.formula = expr::Expression::parse(formula);
  if (!threshold.empty()) node.threshold = expr::Expression::parse(threshold);
  return node;
}

// Busy = busy_slots / SLOTS, Idle = 1 - Busy (identity) or idle_slots / SLOTS.
inline model::Model tiny_model() {
  model::Model m;
  m.name = "tiny";
  m.title = "Tiny test model";
  m.constants["Width"] = 4;
  m.definitions.emplace_back("SLOTS", expr::Expression::parse("Width * cycles"));
  m.nodes.push_back(make_node("Busy", "", 1, "busy_slots / SLOTS", "this > 0.2"));
  m.nodes.push_back(
      make_node("Busy_Memory", "Busy", 2, "Busy * mem_stalls / all_stalls", "this > 0.1 and parent_over"));
  m.nodes.push_back(make_node("Busy_Core", "Busy", 2, "Busy - Busy_Memory", "this > 0.1 and parent_over"));
  m.nodes.push_back(make_node("Idle", "", 1, "idle_slots / SLOTS", "this > 0.2"));
  m.nodes.back().identity = expr::Expression::parse("1 - Busy");
  m.nodes.push_back(make_node("Hyper", "", 1, "0 if not smt_enabled else hyper_slots / SLOTS", "this > 0.1"));
  m.nodes.push_back(make_node("IPC", "", 0, "instructions / cycles"));
  m.nodes.back().unit = "instructions/cycle";
  return m;
}

}  // namespace topdown::testing
