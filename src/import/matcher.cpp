#include <algorithm>

#include "common/error.h"
#include "common/strings.h"
#include "events/model_resolver.h"
#include "import/import.h"

namespace topdown::import {
namespace {

// A model event without a privilege modifier counts in whatever mode the run
// used, so the file's :u or :k does not matter for it.
bool same_event(const events::Encoding& model_event, const events::Encoding& file_event) {
  const bool model_fixes_privilege = model_event.exclude_user || model_event.exclude_kernel;
  return model_event.type == file_event.type && model_event.config == file_event.config &&
         model_event.config1 == file_event.config1 && model_event.config2 == file_event.config2 &&
         (!model_fixes_privilege || (model_event.exclude_user == file_event.exclude_user &&
                                     model_event.exclude_kernel == file_event.exclude_kernel));
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
    if (counts::parse_group_copy(name)) continue;
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
  for (const std::string* name : fresh) {
    const auto encoding = try_resolve(resolver_, *name);
    if (!encoding) continue;
    for (auto& event : model_events_) {
      if (!event.claimed && event.encoding && same_event(*event.encoding, *encoding)) claim(event, *name);
    }
  }
}

const std::vector<std::string>& EventMatcher::targets(const std::string& file_event) const {
  static const std::vector<std::string> kNone;
  auto found = targets_.find(file_event);
  return found == targets_.end() ? kNone : found->second;
}

EventMatcher::Translation EventMatcher::translate(const counts::Sample& file_sample,
                                                  const std::vector<std::string>& file_events) {
  learn(file_events);
  Translation result;
  result.sample.duration_s = file_sample.duration_s;
  for (const auto& name : file_events) {
    const auto copy = counts::parse_group_copy(name);
    const auto& model_names = targets(copy ? std::string(copy->event) : name);
    const counts::Count* count = file_sample.find(name);
    if (model_names.empty()) result.unmatched.push_back(name);
    if (!count) continue;
    if (model_names.empty()) result.sample.events.emplace(name, *count);
    for (const auto& model_name : model_names) {
      result.sample.events.emplace(copy ? counts::group_copy_name(model_name, copy->group) : model_name, *count);
    }
  }
  return result;
}

}  // namespace topdown::import
