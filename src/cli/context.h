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
// companion key, without a metrics file), its other core types' (the
// companion's, and a third's found by its PMU: model::with_core_type_pmus); on an Arm
// CPU with several core kinds, each kind's (model::with_core_kinds).
std::vector<model::Model> core_type_models(const cpu::CpuInfo& cpu, const std::string& cpu_override,
                                           const std::string& metrics_file);
// `model` and, unless it was read from a metrics file, its companion or the
// models of `cpu`'s other core kinds.
std::vector<model::Model> core_type_models(model::Model model, const cpu::CpuInfo& cpu,
                                           const std::string& metrics_file);

// The warning that the CPUs of `cpu`'s core kinds none of `models` counts
// are left out: which CPUs, why and what to do (--cpu cannot help), one
// line per kind; empty when every kind is counted.
std::string uncounted_core_kinds_warning(const cpu::CpuInfo& cpu, const std::vector<model::Model>& models);

// The resolver for `model`: this machine's PMUs when the model is this CPU's
// (or one of its core kinds'), else the model's CPU's alone.
events::Resolver resolver_for(const model::Model& model, const cpu::CpuInfo& cpu);

// This machine's CPU (its counters checked when `check` says), or with a
// `root` the one whose /sys and /proc copies are ROOT/sys and ROOT/proc
// (--root; its counters are never checked).
cpu::CpuInfo detect_cpu(const std::string& root, cpu::CounterCheck check = cpu::CounterCheck::Run);

// Detects the CPU (below `root` when given) and loads the model for it (or
// for `cpu_override`, or from `model_file`, and from `metrics_file` when
// given).
Context make_context(const std::string& cpu_override, const std::string& metrics_file = "",
                     const std::string& model_file = "", const std::string& root = "");

}  // namespace topdown::cli
