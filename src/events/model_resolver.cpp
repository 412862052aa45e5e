#include "events/model_resolver.h"

namespace topdown::events {

ResolverConfig resolver_config(const model::Model& model, const cpu::CpuInfo& cpu) {
  ResolverConfig config;
  config.cpu = cpu;
  for (const std::string& table : model.event_tables) {
    config.tables.push_back(model.source.parent_path() / "events" / (table + ".events"));
  }
  config.pfm_pmu = model.pfm_pmu.empty() ? "-" : model.pfm_pmu;
  return config;
}

}  // namespace topdown::events
