#include <charconv>
#include <fstream>

#include "common/strings.h"
#include "cpu/cpu_info.h"
#include "cpu/cpuid_decode.h"

namespace topdown::cpu {
namespace {

std::optional<unsigned> parse_number(std::string_view text) {
  unsigned value = 0;
  const auto [end, status] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (status != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

std::optional<ProcCpuinfo> read_proc_cpuinfo(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) return std::nullopt;
  ProcCpuinfo info;
  bool has_vendor = false;
  std::string line;
  // The first processor's block: the x86 fields name the whole package.
  while (std::getline(in, line) && !trim(line).empty()) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string_view text = line;
    const std::string_view key = trim(text.substr(0, colon));
    const std::string_view value = trim(text.substr(colon + 1));
    if (key == "vendor_id") {
      info.id.vendor_string = std::string(value);
      info.id.vendor = vendor_from_string(info.id.vendor_string);
      has_vendor = true;
    } else if (key == "cpu family") {
      info.id.family = parse_number(value).value_or(0);
    } else if (key == "model") {
      info.id.model = parse_number(value).value_or(0);
    } else if (key == "stepping") {
      info.id.stepping = parse_number(value).value_or(0);
    } else if (key == "model name") {
      info.id.brand = std::string(value);
    } else if (key == "flags") {
      for (const std::string_view flag : split_words(value)) info.flags.emplace(flag);
    }
  }
  if (!has_vendor) return std::nullopt;
  return info;
}

int general_counters(const ProcCpuinfo& cpuinfo) {
  if (cpuinfo.id.vendor != Vendor::Amd) return 0;
  // The core counter extension (and PerfMonV2, which needs it) brings six.
  const bool six = cpuinfo.flags.count("perfctr_core") != 0 || cpuinfo.flags.count("perfmon_v2") != 0;
  return six ? 6 : 4;
}

}  // namespace topdown::cpu
