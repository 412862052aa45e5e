#include "schedule/plan.h"

#include "schedule/countable.h"
#include "schedule/counter_kind.h"
#include "schedule/lacking_term.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "counts/counts.h"

namespace topdown::schedule {
namespace {

struct Packing {
  std::vector<Group> groups;
  // Core groups rotate when there are more than one; an identity is worth
  // using only when it saves one, since measuring a node beats deriving it.
  // Other PMUs' groups do not rotate but still cost something: uncore and
  // msr events count system-wide only, so an Info metric must not bring them
  // in unasked.
  std::pair<long, long> cost(const CounterBudget& budget) const {
    const long core =
        std::count_if(groups.begin(), groups.end(), [&](const Group& g) { return is_core_pmu(g.pmu, budget); });
    return {core, static_cast<long>(groups.size()) - core};
  }
};

class Packer {
 public:
  Packer(const model::Model& model, const model::RunVariables& vars, const Selection& selection,
         const events::Resolver& resolver, const CounterBudget& budget, const Countable& countable)
      : folded_(std::make_shared<const model::FoldedModel>(model, vars)),
        selection_(selection),
        resolver_(resolver),
        budget_(budget),
        countable_(countable) {}

  // Why this machine cannot count one of `events`; nullopt when it counts all.
  template <typename Events>
  std::optional<std::string> why_not(const Events& events) {
    if (countable_.everything()) return std::nullopt;
    for (const std::string& event : events) {
      std::optional<std::string> why;
      if (resolved_.count(event) || resolver_.knows(event)) {
        why = countable_.why_not(resolve(event));
      } else if (term_class(event)) {
        // An event whose format term the PMU lacks has no encoding to judge.
        why = countable_.why_not(event, core_pmu());
      } else {
        why = refusal_reason(event);
      }
      if (why) return why;
    }
    return std::nullopt;
  }

  // The model folded for the run, shared by every trial.
  const std::shared_ptr<const model::FoldedModel>& folded() const { return folded_; }

  // nullopt when the identities make formulas refer to each other in a cycle.
  std::optional<Packing> pack_with(const std::vector<std::string>& nodes, const model::IdentityChoice& identities) {
    std::optional<model::Dependencies> deps;
    try {
      deps.emplace(folded_, identities);
    } catch (const Error&) {
      if (identities.empty()) throw;
      return std::nullopt;
    }
    // Every node lists all its events, so that pack can keep them in one
    // group even where another node's group counts some of them already.
    std::vector<events::Encoding> encodings;
    std::vector<int> together;
    auto add = [&](const std::string& name, int cluster) {
      encodings.push_back(resolve(name));
      together.push_back(cluster);
    };
    // A node this machine cannot count is left out whole: it is n/a, with why.
    for (size_t i = 0; i < nodes.size(); ++i) {
      const auto& events = deps->events_of(nodes[i]);
      if (why_not(events)) continue;
      for (const std::string& event : events) add(event, static_cast<int>(i));
    }
    for (size_t i = 0; i < selection_.extra_events.size(); ++i) {
      if (why_not(std::vector<std::string>{selection_.extra_events[i]})) continue;
      add(selection_.extra_events[i], static_cast<int>(nodes.size() + i));
    }
    add_slots_leader(encodings, together);
    return Packing{schedule::pack(encodings, together, budget_)};
  }

 private:
  // The kernel counts PERF_METRICS fields only in a group that TOPDOWN.SLOTS
  // leads, which formulas reading the fields alone (Lunar Lake's level 1)
  // never name: the plan counts it beside the first node that reads them.
  void add_slots_leader(std::vector<events::Encoding>& encodings, std::vector<int>& together) {
    if (std::any_of(encodings.begin(), encodings.end(), is_slots)) return;
    const auto metric = std::find_if(encodings.begin(), encodings.end(),
                                     [](const events::Encoding& event) { return event.topdown_metric; });
    if (metric == encodings.end()) return;
    const int cluster = together.at(static_cast<size_t>(metric - encodings.begin()));
    encodings.push_back(resolve(std::string(kSlotsEvent)));
    together.push_back(cluster);
  }

  // Why the resolver refuses `event` when that is a format term this
  // machine's PMU lacks; nullopt when the event is just unknown.
  std::optional<std::string> refusal_reason(const std::string& event) const {
    try {
      resolver_.resolve(event);
    } catch (const Error& error) {
      return lacking_term_reason(event, error.what());
    }
    return std::nullopt;
  }

  // The PMU the model's core events open on.
  const std::string& core_pmu() {
    if (core_pmu_.empty()) core_pmu_ = resolve("INST_RETIRED.ANY").pmu;
    return core_pmu_;
  }

  const events::Encoding& resolve(const std::string& name) {
    auto it = resolved_.find(name);
    if (it == resolved_.end()) it = resolved_.emplace(name, resolver_.resolve(name)).first;
    return it->second;
  }

  std::shared_ptr<const model::FoldedModel> folded_;
  const Selection& selection_;
  const events::Resolver& resolver_;
  const CounterBudget& budget_;
  const Countable& countable_;
  std::map<std::string, events::Encoding, std::less<>> resolved_;
  std::string core_pmu_;
};

// The first core group that counts every core event of the node, under its
// own name or as the group's copy.
std::map<std::string, int, std::less<>> node_groups(const Plan& plan, const model::Dependencies& deps) {
  std::vector<std::set<std::string, std::less<>>> counted(plan.groups.size());
  std::set<std::string, std::less<>> core_events;
  for (size_t index = 0; index < plan.groups.size(); ++index) {
    if (!is_core_pmu(plan.groups[index].pmu, plan.budget)) continue;
    for (const auto& event : plan.groups[index].events) {
      counted[index].insert(event.name);
      core_events.insert(event.name);
    }
  }
  std::map<std::string, int, std::less<>> groups;
  for (const std::string& node : plan.nodes) {
    const auto& events = deps.events_of(node);
    for (size_t index = 0; index < counted.size(); ++index) {
      const bool all_here = std::all_of(events.begin(), events.end(), [&](const std::string& event) {
        return counted[index].count(event) || !core_events.count(event);
      });
      if (all_here && !counted[index].empty()) {
        groups.emplace(node, static_cast<int>(index + 1));
        break;
      }
    }
  }
  return groups;
}

}  // namespace

bool Plan::multiplexed() const { return core_groups() > 1; }

int Plan::core_groups() const {
  return static_cast<int>(
      std::count_if(groups.begin(), groups.end(), [this](const Group& g) { return is_core_pmu(g.pmu, budget); }));
}

std::vector<std::string> select_nodes(const model::Model& model, const Selection& selection) {
  if (selection.max_level < 1 || selection.max_level > 6) {
    throw Error("level " + std::to_string(selection.max_level) + " is out of range; use -l 1 to -l 6");
  }
  std::vector<std::string> nodes;
  for (const auto& node : model.nodes) {
    if (!node.is_info && node.level <= selection.max_level) nodes.push_back(node.name);
  }
  if (selection.all_info) {
    for (const auto& node : model.nodes) {
      if (node.is_info) nodes.push_back(node.name);
    }
  }
  return nodes;
}

Plan make_plan(const model::Model& model, const model::RunVariables& vars, const Selection& selection,
               const events::Resolver& resolver, const CounterBudget& budget, const Countable& countable) {
  if (budget.general < 1) {
    throw Error("no usable general counters (" + std::to_string(budget.general) + "); check `topdown info`");
  }
  Plan plan;
  plan.nodes = select_nodes(model, selection);
  plan.budget = budget;

  Packer packer(model, vars, selection, resolver, budget, countable);
  Packing best = *packer.pack_with(plan.nodes, plan.identities);
  // Greedy: take the identity that saves the most groups, until none helps.
  for (bool improved = true; improved;) {
    improved = false;
    std::optional<std::pair<std::string, Packing>> choice;
    for (const std::string& name : plan.nodes) {
      const model::Node* node = model.find(name);
      if (!node->identity || plan.identities.count(name)) continue;
      model::IdentityChoice trial = plan.identities;
      trial.insert(name);
      auto packing = packer.pack_with(plan.nodes, trial);
      const Packing& incumbent = choice ? choice->second : best;
      if (packing && packing->cost(budget) < incumbent.cost(budget)) choice.emplace(name, std::move(*packing));
    }
    if (choice) {
      plan.identities.insert(choice->first);
      best = std::move(choice->second);
      improved = true;
    }
  }
  if (!selection.all_info) {
    // Info metrics ride along only where their events fit the groups the tree
    // needs anyway: an extra rotating group would cost the tree accuracy.
    const model::Dependencies deps(packer.folded(), plan.identities);
    for (const auto& node : model.nodes) {
      if (!node.is_info) continue;
      const auto& needed = deps.events_of(node.name);
      if (auto why = packer.why_not(needed)) {
        plan.not_counted.emplace(node.name, std::move(*why));
        continue;
      }
      if (!std::all_of(needed.begin(), needed.end(), [&](const std::string& event) { return resolver.knows(event); })) {
        plan.uncountable.push_back(node.name);
        continue;
      }
      std::vector<std::string> trial = plan.nodes;
      trial.push_back(node.name);
      auto packing = packer.pack_with(trial, plan.identities);
      if (packing && packing->cost(budget) <= best.cost(budget)) {
        plan.nodes = std::move(trial);
        best = std::move(*packing);
      } else {
        plan.left_out.push_back(node.name);
      }
    }
  }
  const model::Dependencies deps(packer.folded(), plan.identities);
  for (const std::string& name : plan.nodes) {
    const auto& events = deps.events_of(name);
    if (auto why = packer.why_not(events)) plan.not_counted.emplace(name, std::move(*why));
  }
  for (const std::string& event : selection.extra_events) {
    if (auto why = packer.why_not(std::vector<std::string>{event})) plan.not_counted.emplace(event, std::move(*why));
  }
  for (const auto& [name, why] : plan.not_counted) {
    if (!model.find(name)) continue;
    for (const std::string& event : deps.events_of(name)) {
      if (auto event_why = packer.why_not(std::vector<std::string>{event}))
        plan.uncountable_events.emplace(event, std::move(*event_why));
    }
  }
  plan.groups = std::move(best.groups);
  if (plan.multiplexed()) plan.node_groups = node_groups(plan, deps);
  return plan;
}

std::string describe(const Plan& plan) {
  size_t events = 0;
  for (const auto& group : plan.groups) events += group.events.size();
  std::string text = std::to_string(events) + " events in " + std::to_string(plan.groups.size()) + " group" +
                     (plan.groups.size() == 1 ? "" : "s") + " on " + std::to_string(plan.budget.general) +
                     " general counter" + (plan.budget.general == 1 ? "" : "s");
  if (plan.budget.fixed > 0) text += " + " + std::to_string(plan.budget.fixed) + " fixed";
  if (plan.budget.nmi_watchdog) text += " (one more is the NMI watchdog's)";
  text += plan.multiplexed() ? " (groups rotate: values are multiplexed estimates)\n" : " (no multiplexing)\n";
  for (size_t i = 0; i < plan.groups.size(); ++i) {
    const Group& group = plan.groups[i];
    text += "  group " + std::to_string(i + 1) + " [" + group.pmu + ", " +
            std::to_string(group.general_counters_used(plan.budget)) + " general]:";
    for (const auto& event : group.events) {
      text += " " + counts::spelled(group.copies.key_of(event.name));
      if (uses_fixed_counter(event, plan.budget)) text += "(fixed)";
      if (event.topdown_metric) text += "(metric)";
    }
    text += "\n";
  }
  for (const auto& name : plan.identities) text += "  " + name + " is derived from its identity formula\n";
  if (!plan.uncountable.empty()) {
    text += "  Info metrics left out (events this CPU cannot encode):";
    for (const auto& name : plan.uncountable) text += " " + name;
    text += "\n";
  }
  for (const auto& [name, why] : plan.not_counted) text += "  " + name + " is not counted: " + why + "\n";
  if (!plan.left_out.empty()) {
    text += "  Info metrics left out (they would need another group; --info adds them):";
    for (const auto& name : plan.left_out) text += " " + name;
    text += "\n";
  }
  return text;
}

}  // namespace topdown::schedule
