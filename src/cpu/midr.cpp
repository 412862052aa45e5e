#include <algorithm>
#include <charconv>
#include <cstdint>
#include <map>

#include <fmt/format.h>

#include "common/error.h"
#include "cpu/cpu_info.h"

namespace topdown::cpu {
namespace {

namespace fs = std::filesystem;

// "cpu12" -> 12; nullopt for cpufreq, cpuidle and the other entries.
std::optional<int> cpu_number(const std::string& entry) {
  if (!entry.starts_with("cpu") || entry.size() == 3) return std::nullopt;
  int number = 0;
  const char* first = entry.data() + 3;
  const char* last = entry.data() + entry.size();
  const auto [end, status] = std::from_chars(first, last, number);
  if (status != std::errc() || end != last) return std::nullopt;
  return number;
}

// The kernel prints the register as 0x and 16 hex digits.
uint64_t parse_midr(const std::string& text, const fs::path& file) {
  std::string_view digits = text;
  if (digits.starts_with("0x")) digits.remove_prefix(2);
  uint64_t value = 0;
  const auto [end, status] = std::from_chars(digits.data(), digits.data() + digits.size(), value, 16);
  if (digits.empty() || status != std::errc() || end != digits.data() + digits.size()) {
    throw Error(file.string() + ": '" + text + "' is not a MIDR_EL1 value like 0x00000000410fd4f1");
  }
  return value;
}

}  // namespace

CpuId decode_midr(uint64_t midr) {
  CpuId id;
  id.vendor = Vendor::Arm;
  id.vendor_string = vendor_name(Vendor::Arm);
  id.family = static_cast<unsigned>((midr >> 24) & 0xFF);
  id.model = static_cast<unsigned>((midr >> 4) & 0xFFF);
  const unsigned variant = static_cast<unsigned>((midr >> 20) & 0xF);
  const unsigned revision = static_cast<unsigned>(midr & 0xF);
  id.stepping = variant << 4 | revision;
  id.brand = fmt::format("implementer 0x{:02X} part 0x{:03X} r{}p{}", id.family, id.model, variant, revision);
  return id;
}

std::vector<CoreKind> read_core_kinds(const fs::path& sysfs_root) {
  std::map<uint64_t, std::vector<int>> cpus_by_midr;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(sysfs_root / "devices" / "system" / "cpu", error)) {
    const auto number = cpu_number(entry.path().filename().string());
    if (!number) continue;
    const fs::path file = entry.path() / "regs" / "identification" / "midr_el1";
    if (const auto text = read_first_line(file)) cpus_by_midr[parse_midr(*text, file)].push_back(*number);
  }
  std::vector<CoreKind> kinds;
  for (auto& [midr, cpus] : cpus_by_midr) {
    std::sort(cpus.begin(), cpus.end());
    kinds.push_back({decode_midr(midr), std::move(cpus)});
  }
  std::sort(kinds.begin(), kinds.end(),
            [](const CoreKind& a, const CoreKind& b) { return a.cpus.front() < b.cpus.front(); });
  return kinds;
}

const CoreKind& main_core_kind(const std::vector<CoreKind>& kinds) {
  // Linux numbers the big cores of a big.LITTLE system after the little ones.
  return *std::max_element(kinds.begin(), kinds.end(),
                           [](const CoreKind& a, const CoreKind& b) { return a.cpus.back() < b.cpus.back(); });
}

}  // namespace topdown::cpu
