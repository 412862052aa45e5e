#include <set>

#include "common/error.h"
#include "model/dependencies.h"
#include "schedule/lacking_term.h"
#include "settings/stat.h"

namespace topdown::settings {
namespace {

// Every event a plan of `model` may count with `vars`: each node's and Info
// metric's, as resolved (events this CPU cannot encode are left to the plan).
std::vector<events::Encoding> model_events(const model::Model& model, const model::RunVariables& vars,
                                           const events::Resolver& resolver) {
  const model::Dependencies deps(model, vars);
  std::set<std::string, std::less<>> names;
  for (const model::Node& node : model.nodes) {
    const auto& events = deps.events_of(node.name);
    names.insert(events.begin(), events.end());
  }
  std::vector<events::Encoding> encodings;
  for (const std::string& name : names) {
    if (resolver.knows(name)) {
      encodings.push_back(resolver.resolve(name));
    } else if (schedule::term_class(name)) {
      // It needs a format term this machine's PMU lacks: judged by its name.
      events::Encoding unencoded;
      unencoded.name = name;
      unencoded.pmu = resolver.resolve("INST_RETIRED.ANY").pmu;
      encodings.push_back(std::move(unencoded));
    }
  }
  return encodings;
}

bool perf_metrics_count(const schedule::Countable& countable, const std::vector<events::Encoding>& needed) {
  for (const events::Encoding& event : needed) {
    if (event.topdown_metric && countable.why_not(event)) return false;
  }
  return true;
}

}  // namespace

void find_countable(StatPlanning& planning, Toggle perf_metrics, const cpu::CpuInfo& cpu, const model::Model& model,
                    const events::Resolver& resolver, const schedule::TrialOpen& open) {
  // Another machine's CPU (--cpu) counts what its model says; a machine
  // without a core PMU counts nothing, which collect explains.
  if (!planning.this_machine || !cpu.has_core_pmu()) return;
  std::vector<events::Encoding> needed = model_events(model, planning.vars, resolver);
  planning.countable = schedule::Countable::of_machine(cpu, needed, open);
  if (perf_metrics == Toggle::Auto && planning.vars.perf_metrics && !perf_metrics_count(planning.countable, needed)) {
    // The kernel names the fields but they do not open: plan without them.
    planning.vars.perf_metrics = false;
    needed = model_events(model, planning.vars, resolver);
    planning.countable = schedule::Countable::of_machine(cpu, needed, open);
  }
}

std::vector<std::pair<std::string, std::string>> uncountable_nodes(const model::Model& model,
                                                                   const model::RunVariables& vars,
                                                                   const events::Resolver& resolver,
                                                                   const schedule::Countable& countable) {
  std::vector<std::pair<std::string, std::string>> nodes;
  if (countable.everything()) return nodes;
  const model::Dependencies deps(model, vars);
  for (const model::Node& node : model.nodes) {
    for (const std::string& event : deps.events_of(node.name)) {
      std::optional<std::string> why;
      if (resolver.knows(event)) {
        why = countable.why_not(resolver.resolve(event));
      } else {
        try {
          resolver.resolve(event);
        } catch (const Error& error) {
          why = schedule::lacking_term_reason(event, error.what());
        }
      }
      if (why) {
        nodes.emplace_back(node.name, std::move(*why));
        break;
      }
    }
  }
  return nodes;
}

}  // namespace topdown::settings
