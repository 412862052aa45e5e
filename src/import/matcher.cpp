#include <algorithm>

#include "common/error.h"
#include "common/strings.h"
#include "events/model_resolver.h"
#include "import/import.h"

namespace topdown::import {
namespace {

// The same counter setting, whatever the privilege level. A fixed-counter
// event and its general-counter twin (CPU_CLK_UNHALTED.THREAD and _THREAD_P)
// have one encoding, so they match.
bool same_count(const events::Encoding& model_event, const events::Encoding& file_event) {
  return model_event.type == file_event.type && model_event.config == file_event.config &&
         model_event.config1 == file_event.config1 && model_event.config2 == file_event.config2;
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

EventMatcher::EventMatcher(const model::Model& model, const events::Resolver& resolver) : resolver_(resolver) {
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
    const std::string lower = lowercase(*name);
    for (auto& event : model_events_) {
      if (!event.claimed && event.lower_name == lower) claim(event, *name);
    }
  }
  std::vector<std::pair<const std::string*, events::Encoding>> resolved;
  for (const std::string* name : fresh) {
    if (auto encoding = try_resolve(resolver_, *name)) resolved.emplace_back(name, std::move(*encoding));
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

EventMatcher::Translation EventMatcher::translate(const counts::Sample& file_sample,
                                                  const std::vector<std::string>& file_events) {
  const bool extends_routes = file_events.size() >= routed_names_.size() &&
                              std::equal(routed_names_.begin(), routed_names_.end(), file_events.begin());
  if (!extends_routes) {
    routed_names_.clear();
    routes_.clear();
  }
  if (routes_.size() < file_events.size()) {
    learn(file_events);
    for (size_t i = routes_.size(); i < file_events.size(); ++i) {
      counts::EventKey file_key = counts::parse_spelled(file_events[i]);
      const std::vector<std::string>* model_names = &targets(file_key.event);
      routes_.push_back({std::move(file_key), model_names});
      routed_names_.push_back(file_events[i]);
    }
  }
  Translation result;
  result.sample.duration_s = file_sample.duration_s;
  for (size_t i = 0; i < file_events.size(); ++i) {
    const std::string& name = file_events[i];
    const counts::EventKey& file_key = routes_[i].file_key;
    const auto& model_names = *routes_[i].model_names;
    const counts::Count* count = file_sample.find(name);
    if (model_names.empty()) result.unmatched.push_back(name);
    if (!count) continue;
    if (model_names.empty()) result.sample.events.emplace(name, *count);
    for (const auto& model_name : model_names) {
      result.sample.events.emplace(counts::EventKey{model_name, file_key.group}, *count);
    }
  }
  return result;
}

}  // namespace topdown::import
