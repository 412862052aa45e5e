#pragma once
// CPU identities as CPUID reports them, for tests that pick or match models.
#include <string>

#include "cpu/cpu_info.h"

namespace topdown::testing {

inline cpu::CpuId cpu_id(cpu::Vendor vendor, std::string vendor_string, unsigned family, unsigned model) {
  cpu::CpuId id;
  id.vendor = vendor;
  id.vendor_string = std::move(vendor_string);
  id.family = family;
  id.model = model;
  return id;
}

inline cpu::CpuId intel_cpu(unsigned family, unsigned model) {
  return cpu_id(cpu::Vendor::Intel, "GenuineIntel", family, model);
}

inline cpu::CpuId amd_cpu(unsigned family, unsigned model) {
  return cpu_id(cpu::Vendor::Amd, "AuthenticAMD", family, model);
}

}  // namespace topdown::testing
