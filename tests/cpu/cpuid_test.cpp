#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <string>

#include "common/error.h"
#include "cpu/cpu_info.h"
#include "cpu/cpuid_decode.h"

namespace topdown::cpu {
namespace {

CpuId decoded(uint32_t leaf1_eax) {
  CpuId id;
  decode_signature(leaf1_eax, id);
  return id;
}

TEST(DecodeSignature, Zen5AddsExtendedFamilyAndModel) {
  const CpuId id = decoded(0x00B10F10);
  EXPECT_EQ(id.family, 0x1Au);
  EXPECT_EQ(id.model, 0x11u);
  EXPECT_EQ(id.stepping, 0u);
}

TEST(DecodeSignature, Zen3) {
  const CpuId id = decoded(0x00A00F11);
  EXPECT_EQ(id.family, 0x19u);
  EXPECT_EQ(id.model, 0x01u);
  EXPECT_EQ(id.stepping, 1u);
}

TEST(DecodeSignature, HaswellFamily6UsesExtendedModel) {
  const CpuId id = decoded(0x000306C3);
  EXPECT_EQ(id.family, 6u);
  EXPECT_EQ(id.model, 0x3Cu);
  EXPECT_EQ(id.stepping, 3u);
}

TEST(DecodeSignature, OtherFamiliesIgnoreExtendedModel) {
  const CpuId id = decoded(0x00010543);
  EXPECT_EQ(id.family, 5u);
  EXPECT_EQ(id.model, 4u);
  EXPECT_EQ(id.stepping, 3u);
}

TEST(VendorFromString, KnowsIntelAndAmd) {
  EXPECT_EQ(vendor_from_string("GenuineIntel"), Vendor::Intel);
  EXPECT_EQ(vendor_from_string("AuthenticAMD"), Vendor::Amd);
  EXPECT_EQ(vendor_from_string("CentaurHauls"), Vendor::Other);
  EXPECT_EQ(vendor_name(Vendor::Amd), "AMD");
  EXPECT_EQ(vendor_name(Vendor::Intel), "Intel");
}

CounterLeaves amd_leaves(uint32_t perfmon_v2_eax, uint32_t counters_ebx, uint32_t features_ecx) {
  CounterLeaves leaves;
  leaves.max_leaf = 0x10;
  leaves.max_extended_leaf = 0x80000028;
  leaves.leaf_80000022.eax = perfmon_v2_eax;
  leaves.leaf_80000022.ebx = counters_ebx;
  leaves.leaf_80000001.ecx = features_ecx;
  return leaves;
}

TEST(GeneralCounters, AmdPerfmonV2ReadsLeaf80000022) {
  EXPECT_EQ(general_counters(Vendor::Amd, amd_leaves(1, 0x6, 0)), 6);
  // Only EBX[3:0] is the core counter count; higher bits are other fields.
  EXPECT_EQ(general_counters(Vendor::Amd, amd_leaves(1, 0x105, 0)), 5);
}

TEST(GeneralCounters, AmdWithoutPerfmonV2UsesCoreCounterExtension) {
  EXPECT_EQ(general_counters(Vendor::Amd, amd_leaves(0, 0x6, 1u << 23)), 6);
  EXPECT_EQ(general_counters(Vendor::Amd, amd_leaves(0, 0x6, 0)), 4);
}

TEST(GeneralCounters, AmdIgnoresLeaf80000022BeyondMaxExtendedLeaf) {
  CounterLeaves leaves = amd_leaves(1, 0x5, 1u << 23);
  leaves.max_extended_leaf = 0x80000008;
  EXPECT_EQ(general_counters(Vendor::Amd, leaves), 6);
}

TEST(GeneralCounters, IntelReadsLeafA) {
  CounterLeaves leaves;
  leaves.max_leaf = 0xD;
  leaves.leaf_0a.eax = 0x07300403;
  EXPECT_EQ(general_counters(Vendor::Intel, leaves), 4);
  leaves.max_leaf = 0x9;
  EXPECT_EQ(general_counters(Vendor::Intel, leaves), 0);
  EXPECT_EQ(general_counters(Vendor::Other, leaves), 0);
}

#if defined(__x86_64__) || defined(__i386__)
// The host's cpuid must agree with what the kernel shows in /proc/cpuinfo.
TEST(ReadCpuid, MatchesProcCpuinfo) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  if (!cpuinfo) GTEST_SKIP() << "/proc/cpuinfo is not readable here";
  std::string line, vendor;
  int family = -1, model = -1;
  while (std::getline(cpuinfo, line) && (vendor.empty() || family < 0 || model < 0)) {
    const auto value = line.substr(line.find(':') + 2);
    if (line.rfind("vendor_id", 0) == 0) vendor = value;
    if (line.rfind("cpu family", 0) == 0) family = std::stoi(value);
    if (line.rfind("model\t", 0) == 0) model = std::stoi(value);
  }
  const CpuId id = read_cpuid();
  EXPECT_EQ(id.vendor_string, vendor);
  EXPECT_EQ(static_cast<int>(id.family), family);
  EXPECT_EQ(static_cast<int>(id.model), model);
  EXPECT_EQ(id.vendor, vendor_from_string(vendor));
  EXPECT_FALSE(id.brand.empty());
  EXPECT_NE(id.brand.back(), ' ');
  EXPECT_NE(id.brand.front(), ' ');
}
#else
// On Arm the CPU is the MIDR of the CPUs numbered last, which the kernel shows
// in /proc/cpuinfo too, the last CPU's block last.
TEST(ReadCpuid, MatchesTheLastCpuOfProcCpuinfo) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  if (!cpuinfo) GTEST_SKIP() << "/proc/cpuinfo is not readable here";
  std::optional<unsigned long> implementer, part;
  for (std::string line; std::getline(cpuinfo, line);) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    if (line.rfind("CPU implementer", 0) == 0) implementer = std::stoul(line.substr(colon + 1), nullptr, 16);
    if (line.rfind("CPU part", 0) == 0) part = std::stoul(line.substr(colon + 1), nullptr, 16);
  }
  if (!implementer || !part) {
    GTEST_SKIP() << "/proc/cpuinfo names no Arm CPU (under qemu-user it is the host's)";
  }
  const CpuId id = read_cpuid();
  EXPECT_EQ(id.vendor, Vendor::Arm);
  EXPECT_EQ(id.family, *implementer);
  EXPECT_EQ(id.model, *part);
}
#endif

TEST(ParseIndexList, RangesAndSingles) {
  EXPECT_EQ(parse_index_list("0-3,6", "online"), (std::vector<int>{0, 1, 2, 3, 6}));
  EXPECT_EQ(parse_index_list("5", "online"), (std::vector<int>{5}));
  EXPECT_TRUE(parse_index_list("", "online").empty());
}

TEST(ParseIndexList, RejectsMalformedLists) {
  EXPECT_THROW(parse_index_list("3-1", "online"), Error);
  EXPECT_THROW(parse_index_list("1-", "online"), Error);
  EXPECT_THROW(parse_index_list("a,b", "online"), Error);
  try {
    parse_index_list("0-x", "counters");
    FAIL() << "no exception";
  } catch (const Error& error) {
    EXPECT_STREQ(error.what(), "counters: '0-x' is not a list of indexes like 0-3,6");
  }
}

}  // namespace
}  // namespace topdown::cpu
