// `topdown stat --cpu X -l N --print-perf` for every Intel model X (each
// hybrid CPU's core types too) and every level N: the plan is made, and a
// plan that reads PERF_METRICS fields has TOPDOWN.SLOTS leading their group,
// whether or not a formula names it (Lunar Lake's and Arrow Lake's level 1
// read the fields alone).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "events/model_resolver.h"
#include "schedule/plan.h"
#include "settings/stat.h"

namespace topdown::settings {
namespace {

const std::filesystem::path kModels = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models";

std::vector<std::string> intel_model_names() {
  std::vector<std::string> names;
  for (const model::ModelHeader& header : model::load_headers(kModels)) {
    if (header.cpus.front().vendor == cpu::Vendor::Intel) names.push_back(header.name);
  }
  return names;
}

// A machine that is none of the models' CPUs, as with --cpu on another one.
cpu::CpuInfo another_machine() {
  cpu::CpuInfo cpu;
  cpu.id.vendor = cpu::Vendor::Other;
  return cpu;
}

TEST(EveryIntelModelPlan, EveryLevelPlansWithSlotsLeadingThePerfMetricsFields) {
  const std::vector<std::string> names = intel_model_names();
  ASSERT_GE(names.size(), 20u);
  int plans_reading_fields = 0;
  for (const std::string& name : names) {
    const model::Model model = model::load_model(kModels / (name + ".model"));
    const events::Resolver resolver(events::offline_resolver_config(model));
    for (int level = 1; level <= 6; ++level) {
      StatOptions options;
      options.cpu = name;
      options.report.level = level;
      const StatPlanning planning = plan_stat(options, another_machine(), model, {});
      schedule::Plan plan;
      ASSERT_NO_THROW(plan = schedule::make_plan(model, planning.vars, planning.selection, resolver, planning.budget))
          << name << " -l " << level;
      for (const schedule::Group& group : plan.groups) {
        const bool reads_fields = std::any_of(group.events.begin(), group.events.end(),
                                              [](const events::Encoding& event) { return event.topdown_metric; });
        if (!reads_fields) continue;
        ++plans_reading_fields;
        EXPECT_EQ(group.events.front().name, "TOPDOWN.SLOTS") << name << " -l " << level;
      }
    }
  }
  // Ice Lake on reads the fields at every level: lnl, arl, mtl, spr, ...
  EXPECT_GE(plans_reading_fields, 6 * 10);
}

}  // namespace
}  // namespace topdown::settings
