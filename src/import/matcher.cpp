#include <algorithm>

#include <fmt/format.h>

#include "common/error.h"
#include "common/strings.h"
#include "events/model_resolver.h"
#include "events/raw_syntax.h"
#include "import/hybrid.h"
#include "import/import.h"

namespace topdown::import {
namespace {

// The same counter setting of the same PMU, whatever the privilege level. A
// fixed-counter event and its general-counter twin (CPU_CLK_UNHALTED.THREAD
// and _THREAD_P) have one encoding, so they match. The PMU's name counts as
// well as its type: PMUs this machine lacks share one type (kAbsentPmu), and
// config 0 is msr/tsc/ on one and the uncore clock on another.
bool same_count(const events::Encoding& model_event, const events::Encoding& file_event) {
  return model_event.pmu == file_event.pmu && model_event.type == file_event.type &&
         model_event.config == file_event.config && model_event.config1 == file_event.config1 &&
         model_event.config2 == file_event.config2;
}

bool same_privilege(const events::Encoding& model_event, const events::Encoding& file_event) {
  return model_event.exclude_user == file_event.exclude_user && model_event.exclude_kernel == file_event.exclude_kernel;
}

// A model event without a privilege modifier counts what the run counts: user
// mode (topdown's default, and perf's at perf_event_paranoid 2) or user and
// kernel mode. A file count of user mode, with the kernel or without, stands
// for it; a kernel-only count (:k, :sup) does not.
bool fits_the_runs_mode(const events::Encoding& model_event, const events::Encoding& file_event) {
  return !model_event.exclude_user && !model_event.exclude_kernel && !file_event.exclude_user;
}

// perf names an event of an Arm core PMU with the PMU on some kernels and on
// big.LITTLE systems (armv8_pmuv3_0/stall_slot_frontend/,
// armv8_pmuv3_0/r0008/, armv8_pmuv3_0/event=0x8/): the event alone, which the
// model's CPU resolves on a machine without that PMU too. Arm's core PMUs
// have one event field, config:0-15, so event=N is the raw event rN. The
// Arm core PMUs are `arm_core_pmus` (the counting machine's), or without
// them those named as such (is_arm_core_pmu).
std::string without_arm_core_pmu(const std::string& name, const std::vector<std::string>& arm_core_pmus) {
  std::optional<events::PmuSpelling> spelling;
  try {
    spelling = events::split_pmu_spelling(name);
  } catch (const Error&) {
    return name;  // not a PMU spelling the resolver takes either
  }
  if (!spelling || spelling->terms.size() != 1) return name;
  if (!is_arm_core_pmu(spelling->pmu, arm_core_pmus)) return name;
  const events::PmuTerm& term = spelling->terms.front();
  std::string event;
  if (!term.value) {
    event = term.name;
  } else if (term.name == "event") {
    event = fmt::format("r{:x}", events::parse_number(*term.value, name));
  } else {
    return name;
  }
  return spelling->modifiers.empty() ? event : event + ":" + spelling->modifiers;
}

std::optional<events::Encoding> try_resolve(const events::Resolver& resolver, const std::string& name) {
  try {
    return resolver.resolve(name);
  } catch (const Error&) {
    return std::nullopt;  // a name this CPU's tables do not know: matched by name or not at all
  }
}

}  // namespace

std::set<std::string> model_events(const model::Model& model) {
  const model::Dependencies deps(model, model::RunVariables{});
  std::set<std::string> events;
  auto add = [&](const expr::Expression& expression) {
    for (const auto& name : expression.identifiers()) {
      if (deps.kind_of(name) == model::Dependencies::Kind::Event) events.insert(name);
    }
  };
  for (const auto& [name, definition] : model.definitions) add(definition);
  for (const auto& node : model.nodes) {
    add(node.formula);
    if (node.identity) add(*node.identity);
    if (node.fallback) add(*node.fallback);
    if (node.threshold) add(*node.threshold);
  }
  return events;
}

EventMatcher::EventMatcher(const model::Model& model, const events::Resolver& resolver,
                           std::vector<std::string> arm_core_pmus)
    : resolver_(resolver), arm_core_pmus_(std::move(arm_core_pmus)) {
  for (const auto& name : model_events(model)) {
    model_events_.push_back(ModelEvent{name, lowercase(name), try_resolve(resolver, name)});
  }
}

void EventMatcher::learn(const std::vector<std::string>& file_events) {
  std::vector<const std::string*> fresh;
  for (const auto& name : file_events) {
    // A group's copy of an event (--print-perf of rotating groups) feeds the
    // same copy of the model's event: see translate.
    if (counts::parse_spelled(name).group > 0) continue;
    if (targets_.emplace(name, std::vector<std::string>{}).second) fresh.push_back(&name);
  }
  auto claim = [&](ModelEvent& event, const std::string& file_event) {
    event.claimed = true;
    targets_[file_event].push_back(event.name);
  };
  // The model's own names first, so that an alias with the same encoding
  // (cycles for ls_not_halted_cyc) does not take a count the file names.
  for (const std::string* name : fresh) {
    const std::string lower = lowercase(without_arm_core_pmu(*name, arm_core_pmus_));
    for (auto& event : model_events_) {
      if (!event.claimed && event.lower_name == lower) claim(event, *name);
    }
  }
  std::vector<std::pair<const std::string*, events::Encoding>> resolved;
  for (const std::string* name : fresh) {
    if (auto encoding = try_resolve(resolver_, without_arm_core_pmu(*name, arm_core_pmus_))) {
      resolved.emplace_back(name, std::move(*encoding));
    }
  }
  auto match_encodings = [&](bool (*privilege_fits)(const events::Encoding&, const events::Encoding&)) {
    for (const auto& [name, encoding] : resolved) {
      for (auto& event : model_events_) {
        if (!event.claimed && event.encoding && same_count(*event.encoding, encoding) &&
            privilege_fits(*event.encoding, encoding)) {
          claim(event, *name);
        }
      }
    }
  };
  // The same privilege level first: of `cpu/event=0x3c/u` and
  // `cpu/event=0x3c/`, the second feeds CPU_CLK_UNHALTED.THREAD in either order.
  match_encodings(same_privilege);
  match_encodings(fits_the_runs_mode);
}

const std::vector<std::string>& EventMatcher::targets(const std::string& file_event) const {
  static const std::vector<std::string> kNone;
  auto found = targets_.find(file_event);
  return found == targets_.end() ? kNone : found->second;
}

void EventMatcher::route(const std::vector<std::string>& file_events) {
  const bool extends_routes = file_events.size() >= routed_names_.size() &&
                              std::equal(routed_names_.begin(), routed_names_.end(), file_events.begin());
  if (!extends_routes) {
    routed_names_.clear();
    routes_.clear();
  }
  if (routes_.size() == file_events.size()) return;
  learn(file_events);
  for (size_t i = routes_.size(); i < file_events.size(); ++i) {
    counts::EventKey file_key = counts::parse_spelled(file_events[i]);
    const std::vector<std::string>* model_names = &targets(file_key.event);
    routes_.push_back({std::move(file_key), model_names});
    routed_names_.push_back(file_events[i]);
  }
  routes_by_name_.clear();
  for (size_t i = 0; i < routed_names_.size(); ++i) routes_by_name_.emplace_back(routed_names_[i], i);
  unmatched_routes_ = static_cast<size_t>(
      std::count_if(routes_.begin(), routes_.end(), [](const Route& route) { return route.model_names->empty(); }));
  std::sort(routes_by_name_.begin(), routes_by_name_.end());
  written_.clear();
}

void EventMatcher::find_counts(const counts::Sample& file_sample) {
  found_.assign(routes_.size(), nullptr);
  auto route = routes_by_name_.begin();
  for (const auto& [key, count] : file_sample.events) {
    if (key.group != 0) continue;  // a file's own names are its keys
    while (route != routes_by_name_.end() && route->first < key.event) ++route;
    if (route != routes_by_name_.end() && route->first == key.event) found_[route->second] = &count;
  }
}

bool EventMatcher::rewrite_counts(Translation& result) const {
  if (written_.empty() || result.sample.events.size() != written_.size()) return false;
  for (size_t i = 0; i < found_.size(); ++i) {
    if ((found_[i] != nullptr) != written_counted_[i]) return false;
  }
  auto written = written_.begin();
  for (auto& [key, count] : result.sample.events) {
    if (!(key == written->key)) return false;
    ++written;
  }
  written = written_.begin();
  for (auto& entry : result.sample.events) entry.second = *found_[(written++)->route];
  return true;
}

EventMatcher::Translation EventMatcher::translate(const counts::Sample& file_sample,
                                                  const std::vector<std::string>& file_events) {
  Translation result;
  translate(file_sample, file_events, result);
  return result;
}

void EventMatcher::translate(const counts::Sample& file_sample, const std::vector<std::string>& file_events,
                             Translation& result) {
  route(file_events);
  find_counts(file_sample);
  result.sample.duration_s = file_sample.duration_s;
  // Every interval of a file counts the same events: only the counts change.
  if (result.unmatched.size() == unmatched_routes_ && rewrite_counts(result)) return;
  translate_anew(file_events, result);
}

void EventMatcher::translate_anew(const std::vector<std::string>& file_events, Translation& result) {
  auto& events = result.sample.events;
  spare_nodes_.clear();
  while (!events.empty()) spare_nodes_.push_back(events.extract(events.begin()));
  std::vector<std::pair<const counts::EventKey*, size_t>> written;
  const auto put = [&](const std::string& name, int group, size_t route) {
    const counts::Count& count = *found_[route];
    if (spare_nodes_.empty()) {
      const auto [at, added] = events.emplace(counts::EventKey{name, group}, count);
      if (added) written.emplace_back(&at->first, route);
      return;
    }
    auto node = std::move(spare_nodes_.back());
    spare_nodes_.pop_back();
    node.key().event.assign(name);  // into the string's own storage
    node.key().group = group;
    node.mapped() = count;
    const auto inserted = events.insert(std::move(node));
    if (inserted.inserted) written.emplace_back(&inserted.position->first, route);
  };
  size_t unmatched = 0;
  const auto note_unmatched = [&](const std::string& name) {
    if (unmatched < result.unmatched.size())
      result.unmatched[unmatched].assign(name);
    else
      result.unmatched.push_back(name);
    ++unmatched;
  };
  for (size_t i = 0; i < file_events.size(); ++i) {
    const auto& model_names = *routes_[i].model_names;
    if (model_names.empty()) note_unmatched(file_events[i]);
    if (!found_[i]) continue;
    if (model_names.empty()) put(file_events[i], 0, i);
    for (const auto& model_name : model_names) put(model_name, routes_[i].file_key.group, i);
  }
  result.unmatched.resize(unmatched);
  spare_nodes_.clear();
  std::sort(written.begin(), written.end(),
            [](const auto& a, const auto& b) { return counts::EventKeyLess{}(*a.first, *b.first); });
  written_.clear();
  for (const auto& [key, route] : written) written_.push_back({*key, route});
  written_counted_.assign(found_.size(), false);
  for (size_t i = 0; i < found_.size(); ++i) written_counted_[i] = found_[i] != nullptr;
}

}  // namespace topdown::import
