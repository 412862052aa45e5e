#pragma once
// The --html page of `topdown compare`: one self-contained page (no network,
// no external files) of a comparison. A header with both sides, the test and
// the gates; the functions whose share moved (profiles) and the significant
// changes; per scope level 1 of A over level 1 of B as two stacked bars,
// then the tree and the Info metrics as tables with A, B and the change as
// a bar from zero; for two recordings a differential flame graph. The
// pictures are SVG written here; small inline scripts switch the scope
// shown and the node that colours the flame graph.
#include <string>
#include <vector>

#include "compare/compare.h"
#include "model/model.h"
#include "profile/flame_graph.h"

namespace topdown::html {

// The flame graphs of A's and B's recordings (of one model) for the
// differential flame graph: B's stacks, each frame as wide as its
// clockticks in B, coloured by the change from A of its largest level-1
// node's share of its slots (or of a node chosen on the page).
struct FlameDiff {
  const profile::FlameGraph& a;
  const profile::FlameGraph& b;
  std::vector<const model::Node*> tree;  // the evaluated tree nodes, in the model's order
  std::string clock_event;
};

std::string comparison_page(const compare::Comparison& comparison, const std::vector<compare::GateVerdict>& verdicts,
                            const FlameDiff* flame = nullptr);

// The differential flame graph's section, with its selector and script.
std::string diff_flame_section(const FlameDiff& flame);

}  // namespace topdown::html
