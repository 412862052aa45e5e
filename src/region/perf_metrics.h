#pragma once
// Intel's PERF_METRICS (Ice Lake and later): the SLOTS fixed counter and a
// metrics register of 8-bit fields, each the share of the slots since the
// last reset that went to one TopDown category (levels 1 and, on Sapphire
// Rapids and later, 2). Pure decoding, so every rule is tested with synthetic
// register values.
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "perf/event.h"
#include "region/snapshot.h"
#include "topdown/region.hpp"

namespace topdown::region::metrics {

// perf's pseudo events: SLOTS is event 0x00 umask 0x04 and must lead the
// group; field i is event 0x00 umask 0x80 + i.
constexpr uint64_t kSlotsConfig = 0x0400;
constexpr uint64_t kFirstFieldConfig = 0x8000;
constexpr uint64_t kFieldConfigStep = 0x0100;
// RDPMC counter numbers: fixed counter 3 is SLOTS, metric counter 0 the fields.
constexpr uint32_t kRdpmcSlots = (1u << 30) | 3u;
constexpr uint32_t kRdpmcMetrics = 1u << 29;
constexpr uint64_t kFieldFull = 0xff;  // the four level-1 fields add up to this
constexpr uint64_t kDefaultResetSlots = uint64_t{1} << 32;

enum Field : int {
  kRetiring = 0,
  kBadSpeculation = 1,
  kFrontendBound = 2,
  kBackendBound = 3,
  kHeavyOperations = 4,  // level 2: each a part of the level-1 field four below
  kBranchMispredicts = 5,
  kFetchLatency = 6,
  kMemoryBound = 7,
};

// 4 fields for level 1, 8 for level 2.
int field_count(int level);

inline uint64_t field(uint64_t metrics, int index) { return (metrics >> (8 * index)) & kFieldFull; }

// A reading's fields as slot counts times 0xff: field * slots (computed
// modulo 2^64, so that differences stay right when slots wrapped).
void scale_by_slots(uint64_t metrics, uint64_t slots, int fields, uint64_t* out);

// Turns readings of one counting period into counts that keep growing across
// the periods the library starts with PERF_EVENT_IOC_RESET: values[0] is
// slots, values[1 + i] slots x 0xff of field i; a region is the difference
// of two such snapshots, exactly the seeds' delta of scaled metrics.
class PeriodBank {
 public:
  explicit PeriodBank(int fields) : fields_(fields) {}
  void cumulative(uint64_t period_slots, uint64_t metrics, Snapshot& out) const;
  // Before a reset: the period so far becomes part of the base.
  void close_period(uint64_t period_slots, uint64_t metrics);
  int fields() const { return fields_; }

 private:
  int fields_;
  std::array<uint64_t, 1 + 8> base_{};
};

// When to reset: the fields are 8-bit shares of the whole period, so a short
// region's delta gets coarser the longer the period runs.
struct ResetSchedule {
  uint64_t max_period_slots = kDefaultResetSlots;
  bool due(uint64_t period_slots) const { return period_slots >= max_period_slots; }
};

// The nodes of one region, tree order, from its slots and its fields' slots
// x 0xff (level 2 derives Light_Operations, Machine_Clears, Fetch_Bandwidth
// and Core_Bound by subtraction). Fractions are n/a when there were no slots.
std::vector<NodeValue> decode(int64_t slots, const int64_t* field_slots_x255, int level);

// The group: SLOTS leading, then one event per field, named as perf names
// them (slots, topdown-retiring, ...); user mode only unless include_kernel.
// The group must be read with PERF_FORMAT_GROUP (a rule of the kernel for
// these events), as every region group is.
std::vector<perf::Event> group_events(uint32_t pmu_type, int level, bool include_kernel);

struct Support {
  std::string pmu;  // "cpu" or, on hybrid CPUs, "cpu_core"
  uint32_t type = 0;
  bool level2 = false;  // topdown-heavy-ops and the other level-2 fields exist
};
// Whether the kernel offers the metrics: its PMU lists topdown-retiring and
// slots among its events.
std::optional<Support> detect(const std::filesystem::path& sysfs_devices);

}  // namespace topdown::region::metrics
