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

// The model for `cpu` (or for `cpu_override`, or the file `model_file`,
// --model); with a `metrics_file` (--metrics-file), perf's metric file read
// on that model's CPU.
model::Model choose_model(const cpu::CpuId& cpu, const std::string& cpu_override, const std::string& metrics_file,
                          const std::string& model_file = "");

// Detects the CPU and loads the model for it (or for `cpu_override`, or from
// `model_file`, and from `metrics_file` when given).
Context make_context(const std::string& cpu_override, const std::string& metrics_file = "",
                     const std::string& model_file = "");

// The counters a plan may use: --counters when given; for this machine's
// model what the health check found, else what the CPU reports; for another
// CPU's model (--cpu) what the model says for its SMT setting. Fixed counters
// as the model says (Intel's three when it does not).
// Whether a plan reads Intel's PERF_METRICS: `choice` ("on"/"off") when
// given; for this machine when its kernel offers the fields; for another
// CPU's model (--cpu) on, as its kernel would.
bool use_perf_metrics(const Context& context, const std::string& choice);

schedule::CounterBudget counter_budget(const Context& context, bool smt_enabled, std::optional<int> counters_override);

}  // namespace topdown::cli
