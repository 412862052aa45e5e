#pragma once
// The --html page of `topdown compare`: one self-contained page (no network,
// no external files) of a comparison. A header with both sides, the test and
// the gates; the significant changes; and per scope level 1 of A over level
// 1 of B as two stacked bars, then the tree and the Info metrics as tables
// with A, B and the change as a bar from zero. The pictures are SVG written
// here; a small inline script only switches the scope shown.
#include <string>
#include <vector>

#include "compare/compare.h"

namespace topdown::html {

std::string comparison_page(const compare::Comparison& comparison, const std::vector<compare::GateVerdict>& verdicts);

}  // namespace topdown::html
