#pragma once
// What every command starts from: this CPU, the model chosen for it, and an
// event resolver for that model.
#include <string>
#include <vector>

#include "cpu/cpu_info.h"
#include "events/event.h"
#include "model/model.h"

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

// The model of each core type: choose_model's and, on a hybrid CPU (its
// companion key, without a metrics file), its other core type's.
std::vector<model::Model> core_type_models(const cpu::CpuId& cpu, const std::string& cpu_override,
                                           const std::string& metrics_file);
// `model` and, unless it was read from a metrics file, its companion.
std::vector<model::Model> core_type_models(model::Model model, const std::string& metrics_file);

// The resolver for `model`: this machine's PMUs when the model is this CPU's,
// else the model's CPU's alone.
events::Resolver resolver_for(const model::Model& model, const cpu::CpuInfo& cpu);

// Detects the CPU and loads the model for it (or for `cpu_override`, or from
// `model_file`, and from `metrics_file` when given).
Context make_context(const std::string& cpu_override, const std::string& metrics_file = "",
                     const std::string& model_file = "");

}  // namespace topdown::cli
