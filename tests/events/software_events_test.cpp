#include <gtest/gtest.h>
#include <linux/perf_event.h>

#include "common/error.h"
#include "events/software_events.h"
#include "resolver_fixture.h"

namespace topdown::events {
namespace {

using testing::offline_config;
using topdown::testing::TempTree;

TEST(SoftwareEvents, PerfNamesAndAliases) {
  const struct {
    const char* name;
    uint64_t config;
  } cases[] = {{"cpu-clock", PERF_COUNT_SW_CPU_CLOCK},
               {"task-clock", PERF_COUNT_SW_TASK_CLOCK},
               {"page-faults", PERF_COUNT_SW_PAGE_FAULTS},
               {"faults", PERF_COUNT_SW_PAGE_FAULTS},
               {"context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES},
               {"cs", PERF_COUNT_SW_CONTEXT_SWITCHES},
               {"cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS},
               {"migrations", PERF_COUNT_SW_CPU_MIGRATIONS},
               {"minor-faults", PERF_COUNT_SW_PAGE_FAULTS_MIN},
               {"major-faults", PERF_COUNT_SW_PAGE_FAULTS_MAJ}};
  for (const auto& c : cases) {
    const auto encoding = software_event(c.name);
    ASSERT_TRUE(encoding.has_value()) << c.name;
    EXPECT_EQ(encoding->name, c.name);
    EXPECT_EQ(encoding->type, static_cast<uint32_t>(PERF_TYPE_SOFTWARE)) << c.name;
    EXPECT_EQ(encoding->config, c.config) << c.name;
    EXPECT_EQ(encoding->pmu, "software");
    EXPECT_EQ(encoding->source, "software");
  }
  EXPECT_FALSE(software_event("task_clock").has_value());
  EXPECT_FALSE(software_event("cycles").has_value());
  EXPECT_FALSE(software_event("Task-Clock").has_value()) << "perf's names are lower case";
}

// No sysfs, no libpfm4, no table: software events still resolve, so they can
// be counted on a machine without any PMU.
TEST(SoftwareEvents, TheResolverKnowsThemWithoutAnyPmu) {
  TempTree tree;
  const Resolver resolver(offline_config(testing::zen5(), tree));
  const Encoding task_clock = resolver.resolve("task-clock");
  EXPECT_EQ(task_clock.type, static_cast<uint32_t>(PERF_TYPE_SOFTWARE));
  EXPECT_EQ(task_clock.config, static_cast<uint64_t>(PERF_COUNT_SW_TASK_CLOCK));
  EXPECT_EQ(task_clock.perf_spelling(), "software/config=0x1,name=task-clock/");

  const Encoding user_faults = resolver.resolve("page-faults:u");
  EXPECT_EQ(user_faults.name, "page-faults:u");
  EXPECT_EQ(user_faults.config, static_cast<uint64_t>(PERF_COUNT_SW_PAGE_FAULTS));
  EXPECT_TRUE(user_faults.exclude_kernel);
  EXPECT_FALSE(user_faults.exclude_user);
  EXPECT_EQ(user_faults.perf_spelling(), "software/config=0x2,name=page-faults:u/u");
}

TEST(SoftwareEvents, AModelTableStillWins) {
  TempTree tree;
  tree.write("own.events", "cs = cpu/event=0x42/\n");
  ResolverConfig config = offline_config(testing::zen5(), tree);
  config.tables = {tree.root() / "own.events"};
  const Resolver resolver(config);
  EXPECT_EQ(resolver.resolve("cs").config, 0x42u);
  EXPECT_EQ(resolver.resolve("context-switches").type, static_cast<uint32_t>(PERF_TYPE_SOFTWARE));
}

TEST(SoftwareEvents, HardwareModifiersAreRejected) {
  TempTree tree;
  const Resolver resolver(offline_config(testing::zen5(), tree));
  EXPECT_THROW(resolver.resolve("task-clock:c1"), Error);
}

}  // namespace
}  // namespace topdown::events
