#include "model/perf_metric_formulas.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <utility>

#include "common/error.h"
#include "common/strings.h"
#include "model/model.h"

namespace topdown::model::perf_json {
namespace {

// perf's literals about the machine as a whole that are none of our run
// variables (perf itself reads them from the system it runs on).
constexpr std::array<std::string_view, 5> kMachineLiterals = {"#num_cpus", "#num_cores", "#num_dies", "#num_packages",
                                                              "#system_tsc_freq"};

bool is_event_name(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
  });
}

// One perf event term as the TMA modifier our event tables read; empty when
// it has none (thresh=, offcore_rsp=, ...).
std::string modifier_of(std::string_view term) {
  const auto equals = term.find('=');
  const std::string_view key = term.substr(0, equals);
  const std::string_view value = equals == std::string_view::npos ? "1" : term.substr(equals + 1);
  if (key == "cmask") return ":c" + std::string(value);
  if (key == "inv") return ":i" + std::string(value);
  if (key == "edge") return ":e" + std::string(value);
  if (key == "umask") return ":u" + std::string(value);
  return "";
}

// perf writes an event with extra terms as cpu/EVENT,cmask=1/ or
// EVENT/cmask=1/; our spelling is EVENT:c1. Other forms stay as they are.
std::optional<std::string> tma_event_spelling(std::string_view name) {
  const auto slash = name.find('/');
  if (slash == std::string_view::npos || !name.ends_with('/') || name.size() < slash + 2) return std::nullopt;
  const std::string_view pmu = name.substr(0, slash);
  std::string_view terms = name.substr(slash + 1, name.size() - slash - 2);
  std::string event(pmu);
  if (pmu == "cpu") {
    const auto comma = std::min(terms.find(','), terms.size());
    event = terms.substr(0, comma);
    terms.remove_prefix(std::min(comma + 1, terms.size()));
  }
  if (!is_event_name(event) || event.find('.') == std::string::npos) return std::nullopt;
  while (!terms.empty()) {
    const auto comma = std::min(terms.find(','), terms.size());
    const std::string modifier = modifier_of(terms.substr(0, comma));
    if (modifier.size() < 3 || !is_event_name(modifier.substr(1))) return std::nullopt;
    event += modifier;
    terms.remove_prefix(std::min(comma + 1, terms.size()));
  }
  return event;
}

bool asks_about_event(std::string_view name) {
  return (name.starts_with("has_event(") || name.starts_with("source_count(")) && name.ends_with(')');
}

// The replacement of one identifier of a MetricExpr or MetricThreshold, if any.
std::optional<expr::Expression> translate_name(const std::string& name, const MetricNames& metrics,
                                               const std::string& where) {
  if (name.starts_with('#')) {
    const std::string literal = lowercase(name);
    if (is_run_variable(literal)) return expr::Expression::parse(literal);
    // Intel's converter wrote the TMA's "ebs_mode" as "#core_wide < 1".
    if (literal == "#core_wide") return expr::Expression::parse("not ebs_mode");
    if (std::find(kMachineLiterals.begin(), kMachineLiterals.end(), literal) != kMachineLiterals.end()) {
      return expr::Expression::constant(NAN);
    }
    throw Error(where + ": unknown literal " + name +
                "; perf knows #smt_on, #slots, #core_wide, #num_cpus, "
                "#num_cpus_online, #num_cores, #num_dies, #num_packages and #system_tsc_freq");
  }
  if (asks_about_event(name)) return expr::Expression::constant(NAN);
  if (const auto event = tma_event_spelling(name)) return expr::Expression::parse(*event);
  if (name.starts_with("tma_") && !metrics.count(name)) {
    throw Error(where + ": uses " + name + ", which no metric of the file defines; tma_ names are metrics");
  }
  return std::nullopt;
}

}  // namespace

expr::Expression translate_formula(const expr::Expression& perf, const MetricNames& metrics, const std::string& where) {
  return perf.rewrite([&](const expr::Expression& part) -> std::optional<expr::Expression> {
    const auto name = part.identifier();
    return name ? translate_name(*name, metrics, where) : std::nullopt;
  });
}

expr::Expression translate_threshold(const expr::Expression& perf, const std::string& self, const std::string& parent,
                                     const OwnTests& tests, const MetricNames& metrics, const std::string& where) {
  // The whole threshold is never replaced by another metric's verdict: two
  // metrics with the same test would then wait on each other.
  bool whole = true;
  return perf.rewrite([&](const expr::Expression& part) -> std::optional<expr::Expression> {
    const bool is_whole = std::exchange(whole, false);
    if (const auto name = part.identifier()) {
      if (*name == self) return expr::Expression::parse("this");
      return translate_name(*name, metrics, where);
    }
    if (is_whole) return std::nullopt;
    const auto test = tests.find(part.to_string());
    if (test == tests.end() || test->second == self) return std::nullopt;
    return expr::Expression::parse(test->second == parent ? "parent_over" : "over(" + test->second + ")");
  });
}

}  // namespace topdown::model::perf_json
