#include <fmt/format.h>

#include <cstdio>

#include "cli/commands.h"
#include "cli/context.h"
#include "cli/output.h"
#include "common/data_dir.h"
#include "common/error.h"
#include "model/model.h"
#include "settings/stat.h"

namespace topdown::cli {
namespace {

// "model neoverse-v2 (Arm Neoverse V2)", or "no model".
std::string model_of(const cpu::CpuId& id) {
  try {
    const model::Model model = model::select_model(models_dir(), id);
    return fmt::format("model {} ({})", model.name, model.title);
  } catch (const Error&) {
    return "no model";
  }
}

// An Arm CPU's kinds of core, one line each: the MIDR's fields, its model
// and the PMU that counts on its CPUs.
std::string core_kind_lines(const cpu::CpuInfo& cpu) {
  std::string lines;
  for (const cpu::CoreKind& kind : cpu.core_kinds) {
    const cpu::PmuInfo* pmu = cpu.arm_core_pmu_of(kind);
    lines +=
        fmt::format("core kind:      cpus {}: {}, {}, pmu {}\n", cpu::format_index_list(kind.cpus), kind.id.brand,
                    model_of(kind.id), pmu ? fmt::format("{} (type {})", pmu->name, pmu->type) : std::string("none"));
  }
  return lines;
}

// What this machine counts of `model`'s events, class by class, and the
// nodes and Info metrics the classes it lacks cost the model.
std::string what_counts(const cpu::CpuInfo& cpu, const model::Model& model, const std::string& root) {
  if (!model.runs_on(cpu) || !cpu.has_core_pmu()) return "";
  const events::Resolver resolver = resolver_for(model, cpu);
  settings::StatPlanning planning = settings::plan_stat(settings::StatOptions{}, cpu, model, {});
  const schedule::TrialOpen open = root.empty() ? schedule::TrialOpen(collect::trial_open) : schedule::TrialOpen();
  settings::find_countable(planning, settings::Toggle::Auto, cpu, model, resolver, open);
  std::string out;
  for (const std::string& label : planning.countable.counting()) out += fmt::format("  counts:       {}\n", label);
  for (const schedule::MissingClass& missing : planning.countable.missing()) {
    out += fmt::format("  cannot count: {} ({})\n", missing.label, missing.why);
  }
  out += fmt::format("  perf metrics: {}; general counters planned: {}{}\n", planning.vars.perf_metrics ? "on" : "off",
                     planning.budget.general, planning.budget.nmi_watchdog ? " (one left to the NMI watchdog)" : "");
  const auto lost = settings::uncountable_nodes(model, planning.vars, resolver, planning.countable);
  if (lost.empty()) return out + "  every node and Info metric of the model counts here\n";
  std::string names;
  for (const auto& [name, why] : lost) names += (names.empty() ? "" : " ") + name;
  return out + fmt::format("  not counted here ({} of {}): {}\n", lost.size(), model.nodes.size(), names);
}

}  // namespace

int run_info(const std::string& root) {
  const cpu::CpuInfo cpu = detect_cpu(root);
  std::string out;
  out += fmt::format("cpu:            {} family 0x{:X} model 0x{:X} stepping {} ({})\n", cpu.id.vendor_string,
                     cpu.id.family, cpu.id.model, cpu.id.stepping, cpu.id.brand);
  out += core_kind_lines(cpu);
  if (cpu.core_kinds.size() > 1) {
    try {
      std::fputs(uncounted_core_kinds_warning(cpu, core_type_models(cpu, "", "")).c_str(), stderr);
    } catch (const Error&) {
      // No model for the main kind: the model line below says so.
    }
  }
  out += fmt::format("online cpus:    {}\n", cpu.online_cpus);
  out += fmt::format("smt:            {}\n", cpu.smt_enabled ? "on" : "off");
  std::string pmus;
  for (const auto& pmu : cpu.pmus) pmus += (pmus.empty() ? "" : ", ") + pmu.name;
  out += fmt::format("pmus:           {}\n", pmus.empty() ? "(none)" : pmus);
  out +=
      fmt::format("core pmu:       {}\n", cpu.has_core_pmu() ? "yes" : "NO (no hardware counters: VM without vPMU?)");
  for (const cpu::PmuInfo& core_type : cpu.hybrid_core_pmus()) {
    out += fmt::format("hybrid core pmu: {} (type {}) on cpus {}\n", core_type.name, core_type.type,
                       cpu::format_index_list(core_type.cpus));
  }
  out += fmt::format("perf_event_paranoid: {}\n", cpu.perf_event_paranoid.empty() ? "?" : cpu.perf_event_paranoid);
  std::string check = "health check not possible";
  if (cpu.working_counters) {
    check = fmt::format("{} really count", *cpu.working_counters);
  } else if (!root.empty()) {
    check = "health check not run (" + root + " is not this machine's)";
  }
  out += fmt::format("general counters: {} reported, {}\n", cpu.reported_counters, check);
  if (cpu.nmi_watchdog) {
    out += "nmi watchdog:   on: it holds a counter on every CPU; `sysctl kernel.nmi_watchdog=0` frees it\n";
  }
  if (cpu.hypervisor) out += "hypervisor:     yes (a virtual machine: its PMU may count less than the CPU's)\n";
  try {
    const std::vector<model::Model> models = model::with_core_type_pmus(
        model::with_companion(model::select_model(models_dir(), cpu.id), models_dir()), cpu, models_dir());
    for (const model::Model& model : models) {
      out += fmt::format("model:          {} ({}){}\n", model.name, model.title,
                         model.pmu.empty() ? "" : " on " + model.pmu);
      out += what_counts(cpu, model, root);
    }
  } catch (const Error& error) {
    out += fmt::format("model:          none: {}\n", error.what());
  }
  emit("", out);
  return 0;
}

}  // namespace topdown::cli
