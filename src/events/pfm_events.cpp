#include "events/pfm_events.h"

#include <perfmon/pfmlib_perf_event.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <utility>

namespace topdown::events {
namespace {

std::mutex& pfm_mutex() {
  static std::mutex mutex;
  return mutex;
}

// Call with pfm_mutex() held.
bool pfm_ready() {
  static const bool ready = [] {
    setenv("LIBPFM_ENCODE_INACTIVE", "1", /*overwrite=*/0);
    return pfm_initialize() == PFM_SUCCESS;
  }();
  return ready;
}

// Intel perfmon spells offcore events OFFCORE_RESPONSE.<request>.<response>;
// libpfm4 has OFFCORE_RESPONSE_0 with its own unit mask names. Only parts whose
// bits agree between the two are bridged (on Haswell libpfm4 4.13's L3_HIT
// lacks bit 21 that perfmon's L3_HIT sets; see the resolver tests).
constexpr std::array<std::pair<std::string_view, std::string_view>, 16> kOffcoreParts{{
    {"DEMAND_DATA_RD", "DMND_DATA_RD"},
    {"DEMAND_RFO", "DMND_RFO"},
    {"DEMAND_CODE_RD", "DMND_CODE_RD"},
    {"PF_L2_DATA_RD", "PF_DATA_RD"},
    {"PF_L2_RFO", "PF_RFO"},
    {"PF_L2_CODE_RD", "PF_CODE_RD"},
    {"PF_L3_DATA_RD", "PF_L3_DATA_RD"},
    {"PF_L3_RFO", "PF_L3_RFO"},
    {"PF_L3_CODE_RD", "PF_L3_CODE_RD"},
    {"ALL_DATA_RD", "ANY_DATA"},
    {"ALL_RFO", "ANY_RFO"},
    {"ALL_CODE_RD", "ANY_CODE_RD"},
    {"ALL_REQUESTS", "ANY_REQUEST"},
    {"L3_HIT.HITM_OTHER_CORE", "L3_HIT:SNP_HITM"},
    {"L3_HIT.HIT_OTHER_CORE_NO_FWD", "L3_HIT:SNP_NO_FWD"},
    {"L3_MISS.LOCAL_DRAM", "L3_MISS_LOCAL:SNP_NOT_NEEDED"},
}};

std::optional<std::string_view> offcore_part(std::string_view part) {
  for (const auto& [perfmon, libpfm] : kOffcoreParts) {
    if (part == perfmon) return libpfm;
  }
  return std::nullopt;
}

std::optional<std::string> offcore_spelling(std::string_view name) {
  constexpr std::string_view kPrefix = "OFFCORE_RESPONSE.";
  if (name.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  const std::string_view rest = name.substr(kPrefix.size());
  const size_t dot = rest.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  const auto request = offcore_part(rest.substr(0, dot));
  const auto response = offcore_part(rest.substr(dot + 1));
  if (!request || !response) return std::nullopt;
  return "OFFCORE_RESPONSE_0:" + std::string(*request) + ":" + std::string(*response);
}

// Call with pfm_mutex() held.
std::string host_core_pmu_locked() {
  if (!pfm_ready()) return "";
  int index = 0;
  pfm_for_all_pmus(index) {
    pfm_pmu_info_t info;
    std::memset(&info, 0, sizeof info);
    info.size = sizeof info;
    if (pfm_get_pmu_info(static_cast<pfm_pmu_t>(index), &info) != PFM_SUCCESS) continue;
    if (info.is_present && info.type == PFM_PMU_TYPE_CORE) return info.name;
  }
  return "";
}

}  // namespace

std::string pfm_host_core_pmu() {
  std::lock_guard lock(pfm_mutex());
  return host_core_pmu_locked();
}

bool pfm_knows_pmu(std::string_view pmu) {
  std::lock_guard lock(pfm_mutex());
  if (!pfm_ready()) return false;
  int index = 0;
  pfm_for_all_pmus(index) {
    pfm_pmu_info_t info;
    std::memset(&info, 0, sizeof info);
    info.size = sizeof info;
    if (pfm_get_pmu_info(static_cast<pfm_pmu_t>(index), &info) == PFM_SUCCESS && pmu == info.name) {
      return true;
    }
  }
  return false;
}

std::vector<std::string> pfm_spellings(std::string_view name) {
  std::vector<std::string> spellings{std::string(name)};
  if (const auto offcore = offcore_spelling(name)) {
    spellings.push_back(*offcore);
    return spellings;
  }
  const size_t dot = name.find('.');
  if (dot == std::string_view::npos) return spellings;
  // "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE" is libpfm4's
  // IDQ_UOPS_NOT_DELIVERED:CYCLES_0_UOPS_DELIV_CORE: one unit mask.
  std::string translated(name);
  translated[dot] = ':';
  for (size_t i = dot + 1; i < translated.size(); ++i) {
    if (translated[i] == '.') translated[i] = '_';
  }
  spellings.push_back(translated);
  return spellings;
}

std::optional<PfmEncoding> pfm_encode(std::string_view pmu, std::string_view name) {
  std::lock_guard lock(pfm_mutex());
  const std::string pmu_name = pmu.empty() ? host_core_pmu_locked() : std::string(pmu);
  if (pmu_name.empty() || !pfm_ready()) return std::nullopt;
  for (const std::string& spelling : pfm_spellings(name)) {
    const std::string qualified = pmu_name + "::" + spelling;
    perf_event_attr attr;
    std::memset(&attr, 0, sizeof attr);
    pfm_perf_encode_arg_t arg;
    std::memset(&arg, 0, sizeof arg);
    arg.attr = &attr;
    arg.size = sizeof arg;
    // Both privilege levels: :SUP/:USER are applied by us afterwards.
    if (pfm_get_os_event_encoding(qualified.c_str(), PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg) != PFM_SUCCESS) {
      continue;
    }
    if (attr.type != PERF_TYPE_RAW) continue;
    return PfmEncoding{attr.config, attr.config1, attr.config2, spelling};
  }
  return std::nullopt;
}

}  // namespace topdown::events
