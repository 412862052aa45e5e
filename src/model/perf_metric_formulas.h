#pragma once
// perf's MetricExpr and MetricThreshold as topdown formulas: the part of
// load_perf_metrics_json that reads formulas (docs/model-format.md, "perf
// metric files"). Each function throws Error starting with `where`.
#include <map>
#include <set>
#include <string>

#include "expr/expression.h"

namespace topdown::model::perf_json {

// The file's metric names, to tell a metric used in a formula from an event.
using MetricNames = std::set<std::string, std::less<>>;

// perf's literals become what a run knows: #SMT_on (any case) our #smt_on,
// and so on for every literal that is one of our run variables; #core_wide
// is `not ebs_mode`, as the TMA writes what perf calls core-wide; the other
// machine sizes (#num_dies, #num_packages, ...), #system_tsc_freq,
// has_event(E) and source_count(E) are n/a. Events with
// terms, cpu/EVENT,cmask=1,inv/ or EVENT/cmask=1/, get our modifiers,
// EVENT:c1:i1 (cmask, inv, edge, umask; other terms stay perf's). Rejects
// literals perf does not know and tma_ names that are no metric.
expr::Expression translate_formula(const expr::Expression& perf, const MetricNames& metrics, const std::string& where);

// What a threshold may say about the other metrics: the text of each
// metric's own threshold (one that tests the metric itself), as
// Expression::to_string writes it, and that metric's name.
using OwnTests = std::map<std::string, std::string, std::less<>>;

// A metric's threshold: its own name becomes `this`; a part that is another
// metric's whole own test becomes parent_over for the parent, over(NAME) for
// any other; literals as in translate_formula.
expr::Expression translate_threshold(const expr::Expression& perf, const std::string& self, const std::string& parent,
                                     const OwnTests& tests, const MetricNames& metrics, const std::string& where);

}  // namespace topdown::model::perf_json
