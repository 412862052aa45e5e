#pragma once
// libpfm4 as a source of event encodings.
//
// libpfm4 only encodes for PMUs it detects on the host. To encode for another
// processor (Haswell "hsw" tables on an AMD host, Zen 4 on Zen 3) we set
// LIBPFM_ENCODE_INACTIVE=1 before pfm_initialize(): every PMU it knows then
// encodes, while unprefixed names still go to the host's PMUs. We chose this
// over LIBPFM_FORCE_PMU, which replaces the host PMU by a single forced one,
// and over pfm_terminate() + re-initialising, which is not safe while another
// thread encodes. A user who set LIBPFM_ENCODE_INACTIVE keeps their value.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topdown::events {

struct PfmEncoding {
  uint64_t config = 0;
  uint64_t config1 = 0;
  uint64_t config2 = 0;
  std::string spelling;  // the libpfm4 name that matched
};

// libpfm4's name for the host's core PMU ("amd64_fam19h_zen3"); empty when
// libpfm4 does not know this processor or cannot start.
std::string pfm_host_core_pmu();

// True when libpfm4 knows a PMU of that name (present on the host or not).
bool pfm_knows_pmu(std::string_view pmu);

// The libpfm4 spellings tried for an event name, in order: the name itself
// (libpfm4's own "EVENT:UMASK"), then the TMA/perfmon name translated
// ("UOPS_EXECUTED.CORE" -> "UOPS_EXECUTED:CORE").
std::vector<std::string> pfm_spellings(std::string_view name);

// Encodes `name` (without modifiers) as a raw core event of libpfm4 PMU
// `pmu`. nullopt when libpfm4 does not know it there. Thread-safe.
std::optional<PfmEncoding> pfm_encode(std::string_view pmu, std::string_view name);

}  // namespace topdown::events
