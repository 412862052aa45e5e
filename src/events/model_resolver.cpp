#include "events/model_resolver.h"

namespace topdown::events {

ResolverConfig resolver_config(const model::Model& model, const cpu::CpuInfo& cpu) {
  ResolverConfig config;
  config.cpu = cpu;
  for (const std::string& table : model.event_tables) {
    config.tables.push_back(model.source.parent_path() / "events" / (table + ".events"));
  }
  config.pfm_pmu = model.pfm_pmu.empty() ? "-" : model.pfm_pmu;
  config.core_pmu = model.pmu;
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
