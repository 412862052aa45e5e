#include "cpu/cpuid_decode.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

#include <cstring>

#include "common/strings.h"
#define TOPDOWN_X86 1
#endif

namespace topdown::cpu {
#ifdef TOPDOWN_X86
namespace {

CpuidRegs query(uint32_t leaf) {
  CpuidRegs regs;
  __cpuid_count(leaf, 0, regs.eax, regs.ebx, regs.ecx, regs.edx);
  return regs;
}

std::string register_text(std::initializer_list<uint32_t> registers) {
  std::string text;
  for (uint32_t value : registers) {
    char bytes[4];
    std::memcpy(bytes, &value, sizeof bytes);
    text.append(bytes, sizeof bytes);
  }
  return text;
}

constexpr uint32_t kBrandLeafFirst = 0x80000002;
constexpr uint32_t kBrandLeafLast = 0x80000004;

}  // namespace
#endif

void decode_signature(uint32_t leaf1_eax, CpuId& id) {
  const unsigned base_family = (leaf1_eax >> 8) & 0xF;
  const unsigned base_model = (leaf1_eax >> 4) & 0xF;
  id.stepping = leaf1_eax & 0xF;
  id.family = base_family;
  if (base_family == 0xF) id.family += (leaf1_eax >> 20) & 0xFF;
  id.model = base_model;
  if (id.family == 6 || id.family >= 0xF) id.model += ((leaf1_eax >> 16) & 0xF) << 4;
}

Vendor vendor_from_string(const std::string& vendor_string) {
  if (vendor_string == "GenuineIntel") return Vendor::Intel;
  if (vendor_string == "AuthenticAMD" || vendor_string == "HygonGenuine") return Vendor::Amd;
  return Vendor::Other;
}

int general_counters(Vendor vendor, const CounterLeaves& leaves) {
  if (vendor == Vendor::Intel) {
    if (leaves.max_leaf < 0xA) return 0;
    return static_cast<int>((leaves.leaf_0a.eax >> 8) & 0xFF);
  }
  if (vendor == Vendor::Amd) {
    const bool perfmon_v2 = leaves.max_extended_leaf >= 0x80000022 && (leaves.leaf_80000022.eax & 1u) != 0;
    if (perfmon_v2) return static_cast<int>(leaves.leaf_80000022.ebx & 0xF);
    const bool core_counter_extension = (leaves.leaf_80000001.ecx >> 23) & 1u;
    return core_counter_extension ? 6 : 4;
  }
  return 0;
}

#ifdef TOPDOWN_X86
CpuId read_cpuid() {
  CpuId id;
  const CpuidRegs leaf0 = query(0);
  id.vendor_string = register_text({leaf0.ebx, leaf0.edx, leaf0.ecx});
  id.vendor = vendor_from_string(id.vendor_string);
  if (leaf0.eax >= 1) decode_signature(query(1).eax, id);
  if (query(0x80000000).eax >= kBrandLeafLast) {
    std::string brand;
    for (uint32_t leaf = kBrandLeafFirst; leaf <= kBrandLeafLast; ++leaf) {
      const CpuidRegs regs = query(leaf);
      brand += register_text({regs.eax, regs.ebx, regs.ecx, regs.edx});
    }
    id.brand = trim(brand.c_str());
  }
  return id;
}

CounterLeaves read_counter_leaves() {
  CounterLeaves leaves;
  leaves.max_leaf = query(0).eax;
  leaves.max_extended_leaf = query(0x80000000).eax;
  if (leaves.max_leaf >= 0xA) leaves.leaf_0a = query(0xA);
  if (leaves.max_extended_leaf >= 0x80000001) leaves.leaf_80000001 = query(0x80000001);
  if (leaves.max_extended_leaf >= 0x80000022) leaves.leaf_80000022 = query(0x80000022);
  return leaves;
}
#else
CpuId read_cpuid() {
  const std::vector<CoreKind> kinds = read_core_kinds("/sys");
  return kinds.empty() ? CpuId{} : main_core_kind(kinds).id;
}

// No cpuid: the counters are found by the probe (Arm).
CounterLeaves read_counter_leaves() { return {}; }
#endif

std::string vendor_name(Vendor vendor) {
  switch (vendor) {
    case Vendor::Intel:
      return "Intel";
    case Vendor::Amd:
      return "AMD";
    case Vendor::Arm:
      return "Arm";
    case Vendor::Other:
      break;
  }
  return "unknown vendor";
}

}  // namespace topdown::cpu
