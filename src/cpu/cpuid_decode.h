#pragma once
// Decoding of raw cpuid register values, separate from executing cpuid so the
// rules can be tested with the values of processors we do not have.
#include <cstdint>
#include <string>

#include "cpu/cpu_info.h"

namespace topdown::cpu {

struct CpuidRegs {
  uint32_t eax = 0, ebx = 0, ecx = 0, edx = 0;
};

// Fills family/model/stepping of `id` from leaf 1 EAX.
void decode_signature(uint32_t leaf1_eax, CpuId& id);

Vendor vendor_from_string(const std::string& vendor_string);

// The cpuid leaves that say how many general counters there are. A leaf the
// processor does not implement is left zero.
struct CounterLeaves {
  uint32_t max_leaf = 0;           // leaf 0 EAX
  uint32_t max_extended_leaf = 0;  // leaf 0x80000000 EAX
  CpuidRegs leaf_0a;               // Intel architectural perfmon
  CpuidRegs leaf_80000001;         // AMD feature flags
  CpuidRegs leaf_80000022;         // AMD extended perfmon
};

CounterLeaves read_counter_leaves();
int general_counters(Vendor vendor, const CounterLeaves& leaves);

}  // namespace topdown::cpu
