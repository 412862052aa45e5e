#pragma once
// What every command starts from: this CPU, the model chosen for it, and an
// event resolver for that model.
#include <optional>
#include <string>

#include "cpu/cpu_info.h"
#include "events/event.h"
#include "model/model.h"
#include "schedule/plan.h"

namespace topdown::cli {

struct Context {
  cpu::CpuInfo cpu;
  model::Model model;
  events::Resolver resolver;
};

// Detects the CPU and loads the model for it (or for `cpu_override`).
Context make_context(const std::string& cpu_override);

// The counters a plan may use: --counters when given; for this machine's
// model what the health check found, else what the CPU reports; for another
// CPU's model (--cpu) what the model says for its SMT setting. Fixed counters
// as the model says (Intel's three when it does not).
schedule::CounterBudget counter_budget(const Context& context, bool smt_enabled, std::optional<int> counters_override);

}  // namespace topdown::cli
