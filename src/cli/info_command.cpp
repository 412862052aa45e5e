#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/context.h"
#include "cli/output.h"
#include "common/data_dir.h"
#include "model/model.h"

namespace topdown::cli {

int run_info() {
  cpu::CpuInfo cpu = cpu::detect();
  std::string out;
  out += fmt::format("cpu:            {} family 0x{:X} model 0x{:X} stepping {} ({})\n", cpu.id.vendor_string,
                     cpu.id.family, cpu.id.model, cpu.id.stepping, cpu.id.brand);
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
  out += fmt::format("general counters: {} reported, {}\n", cpu.reported_counters,
                     cpu.working_counters ? fmt::format("{} really count", *cpu.working_counters)
                                          : std::string("health check not possible"));
  try {
    for (const model::Model& model : model::with_companion(model::select_model(models_dir(), cpu.id), models_dir())) {
      out += fmt::format("model:          {} ({}){}\n", model.name, model.title,
                         model.pmu.empty() ? "" : " on " + model.pmu);
    }
  } catch (const Error& error) {
    out += fmt::format("model:          none: {}\n", error.what());
  }
  emit("", out);
  return 0;
}

}  // namespace topdown::cli
