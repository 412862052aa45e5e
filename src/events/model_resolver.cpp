#include "events/model_resolver.h"

namespace topdown::events {
namespace {

// On an Arm CPU with cores of several kinds, the PMU of the kind the model
// is for; empty: SysfsPmus's choice.
std::string arm_core_pmu(const model::Model& model, const cpu::CpuInfo& cpu) {
  for (const cpu::CoreKind& kind : cpu.core_kinds) {
    if (!model.matches(kind.id)) continue;
    if (const cpu::PmuInfo* pmu = cpu.arm_core_pmu_of(kind)) return pmu->name;
  }
  return "";
}

}  // namespace

ResolverConfig resolver_config(const model::Model& model, const cpu::CpuInfo& cpu) {
  ResolverConfig config;
  config.cpu = cpu;
  for (const std::string& table : model.event_tables) {
    config.tables.push_back(model.source.parent_path() / "events" / (table + ".events"));
  }
  config.pfm_pmu = model.pfm_pmu.empty() ? "-" : model.pfm_pmu;
  config.sysfs_devices = cpu.sysfs_root / "bus" / "event_source" / "devices";
  config.core_pmu = model.pmu.empty() ? arm_core_pmu(model, cpu) : model.pmu;
  return config;
}

ResolverConfig offline_resolver_config(const model::Model& model) {
  cpu::CpuInfo cpu;
  if (!model.cpus.empty()) {
    cpu.id.vendor = model.cpus.front().vendor;
    cpu.id.family = model.cpus.front().family;
    cpu.id.model = model.cpus.front().model_min;
  }
  ResolverConfig config = resolver_config(model, cpu);
  config.sysfs_devices = "/dev/null/no-pmus";  // below a file: can never exist
  return config;
}

}  // namespace topdown::events
