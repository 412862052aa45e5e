#pragma once
// How one node's value is written for people, shared by the text report and
// the --columns view. Private to the report stage.
#include <string>

#include "eval/evaluate.h"

namespace topdown::report {

// "12.3%" for tree nodes (clamped to 0-100%), "2.50" for Info metrics ("760,852,448"
// from 10,000 on: whole, with thousands separators), "n/a".
std::string value_text(const eval::NodeResult& r);
// The marks after a value: "~" estimate, "?" unreliable, "*" out of range.
std::string marks(const eval::NodeResult& r);

}  // namespace topdown::report
