#pragma once
// Resolver configurations for tests: a CPU described by hand and a sysfs
// directory that does not exist unless a test builds one.
#include <filesystem>
#include <string>

#include "../support/temp_tree.h"
#include "events/event.h"

namespace topdown::events::testing {

inline cpu::CpuInfo make_cpu(cpu::Vendor vendor, unsigned family, unsigned model) {
  cpu::CpuInfo info;
  info.id.vendor = vendor;
  info.id.family = family;
  info.id.model = model;
  return info;
}

inline cpu::CpuInfo zen5() { return make_cpu(cpu::Vendor::Amd, 0x1A, 0x11); }
inline cpu::CpuInfo haswell() { return make_cpu(cpu::Vendor::Intel, 6, 0x3C); }

inline std::filesystem::path models_dir() { return std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models" / "events"; }

// No sysfs, no libpfm4, no tables unless given.
inline ResolverConfig offline_config(const cpu::CpuInfo& cpu, const topdown::testing::TempTree& tree) {
  ResolverConfig config;
  config.cpu = cpu;
  config.pfm_pmu = "-";
  config.sysfs_devices = tree.root() / "no-sysfs";
  return config;
}

}  // namespace topdown::events::testing
