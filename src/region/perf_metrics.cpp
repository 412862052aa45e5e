#include "region/perf_metrics.h"

#include "cpu/cpu_info.h"

namespace topdown::region::metrics {

int field_count(int level) { return level >= 2 ? 8 : 4; }

void scale_by_slots(uint64_t metrics, uint64_t slots, int fields, uint64_t* out) {
  for (int i = 0; i < fields; ++i) out[i] = field(metrics, i) * slots;
}

void PeriodBank::cumulative(uint64_t period_slots, uint64_t metrics, Snapshot& out) const {
  out.values[0] = base_[0] + period_slots;
  uint64_t scaled[8];
  scale_by_slots(metrics, period_slots, fields_, scaled);
  for (int i = 0; i < fields_; ++i) out.values[1 + i] = base_[1 + i] + scaled[i];
}

void PeriodBank::close_period(uint64_t period_slots, uint64_t metrics) {
  Snapshot now;
  cumulative(period_slots, metrics, now);
  for (int i = 0; i <= fields_; ++i) base_[i] = now.values[i];
}

namespace {

struct NodeSpec {
  const char* name;
  const char* vendor_name;  // perf's event name
  const char* parent;
  int level;
};

NodeValue make_node(const NodeSpec& spec, std::optional<double> fraction, double slots) {
  NodeValue node;
  node.name = spec.name;
  node.vendor_name = spec.vendor_name;
  node.parent = spec.parent;
  node.level = spec.level;
  node.fraction = fraction;
  if (fraction) node.slots = *fraction * slots;
  return node;
}

}  // namespace

std::vector<NodeValue> decode(int64_t slots, const int64_t* field_slots_x255, int level) {
  const double total = static_cast<double>(slots);
  auto share = [&](int index) -> std::optional<double> {
    if (slots <= 0) return std::nullopt;
    return static_cast<double>(field_slots_x255[index]) / (static_cast<double>(kFieldFull) * total);
  };
  auto minus = [](std::optional<double> whole, std::optional<double> part) -> std::optional<double> {
    if (!whole || !part) return std::nullopt;
    return *whole - *part;
  };
  // Level-1 field, its level-2 field and the node derived from the two.
  struct Branch {
    Field level1;
    NodeSpec parent;
    NodeSpec measured;  // the level-2 field
    NodeSpec derived;   // parent - measured
    bool measured_first;
  };
  const Branch tree[] = {
      {kFrontendBound,
       {"Frontend_Bound", "topdown-fe-bound", "", 1},
       {"Fetch_Latency", "topdown-fetch-lat", "Frontend_Bound", 2},
       {"Fetch_Bandwidth", "", "Frontend_Bound", 2},
       true},
      {kBadSpeculation,
       {"Bad_Speculation", "topdown-bad-spec", "", 1},
       {"Branch_Mispredicts", "topdown-br-mispredict", "Bad_Speculation", 2},
       {"Machine_Clears", "", "Bad_Speculation", 2},
       true},
      {kBackendBound,
       {"Backend_Bound", "topdown-be-bound", "", 1},
       {"Memory_Bound", "topdown-mem-bound", "Backend_Bound", 2},
       {"Core_Bound", "", "Backend_Bound", 2},
       true},
      {kRetiring,
       {"Retiring", "topdown-retiring", "", 1},
       {"Heavy_Operations", "topdown-heavy-ops", "Retiring", 2},
       {"Light_Operations", "", "Retiring", 2},
       false},
  };
  std::vector<NodeValue> nodes;
  for (const Branch& branch : tree) {
    const std::optional<double> whole = share(branch.level1);
    nodes.push_back(make_node(branch.parent, whole, total));
    if (level < 2) continue;
    const std::optional<double> measured = share(branch.level1 + 4);
    NodeValue measured_node = make_node(branch.measured, measured, total);
    NodeValue derived_node = make_node(branch.derived, minus(whole, measured), total);
    // The order of the TMA tree: Light_Operations comes before Heavy_Operations.
    if (branch.measured_first) {
      nodes.push_back(std::move(measured_node));
      nodes.push_back(std::move(derived_node));
    } else {
      nodes.push_back(std::move(derived_node));
      nodes.push_back(std::move(measured_node));
    }
  }
  return nodes;
}

std::vector<perf::Event> group_events(uint32_t pmu_type, int level, bool include_kernel) {
  static const char* const kFieldNames[] = {"topdown-retiring",  "topdown-bad-spec",  "topdown-fe-bound",
                                            "topdown-be-bound",  "topdown-heavy-ops", "topdown-br-mispredict",
                                            "topdown-fetch-lat", "topdown-mem-bound"};
  std::vector<perf::Event> events;
  for (int i = -1; i < field_count(level); ++i) {
    perf::Event event;
    event.name = i < 0 ? "slots" : kFieldNames[i];
    event.type = pmu_type;
    event.config = i < 0 ? kSlotsConfig : kFirstFieldConfig + static_cast<uint64_t>(i) * kFieldConfigStep;
    event.exclude_kernel = !include_kernel;
    event.exclude_hv = event.exclude_kernel;
    events.push_back(std::move(event));
  }
  return events;
}

std::optional<Support> detect(const std::filesystem::path& sysfs_devices) {
  for (const char* pmu : {"cpu", "cpu_core"}) {
    const std::filesystem::path dir = sysfs_devices / pmu;
    const std::optional<std::string> type = cpu::read_first_line(dir / "type");
    std::error_code ignored;
    if (!type || !std::filesystem::exists(dir / "events" / "slots", ignored) ||
        !std::filesystem::exists(dir / "events" / "topdown-retiring", ignored)) {
      continue;
    }
    Support support;
    support.pmu = pmu;
    try {
      support.type = static_cast<uint32_t>(std::stoul(*type));
    } catch (const std::exception&) {
      continue;  // a type file we cannot read is a PMU we cannot open
    }
    support.level2 = std::filesystem::exists(dir / "events" / "topdown-heavy-ops", ignored);
    return support;
  }
  return std::nullopt;
}

}  // namespace topdown::region::metrics
