// A :percore event (Ice Lake's TOPDOWN.SLOTS:percore) is the sum of a core's
// SMT threads. Live counting does not add threads up per core, so stat leaves
// such an event out: what uses it is n/a and names it, rather than showing
// one thread's count as the core's.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../collect/test_support.h"
#include "../support/temp_tree.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

TEST(PercoreEvents, LiveStatLeavesThemOutAndNamesThem) {
  SKIP_WITHOUT_PERF_EVENTS();
  TempTree tree;
  tree.write("events/software.events", "");
  const auto model = tree.write("percore.model", R"([model]
name = percore
title = Software events with a per-core event
cpus = AMD 0x17, AMD 0x19, AMD 0x1A, Intel 6
event_table = software

[node Thread_Share]
formula = task\-clock / task\-clock:percore
domain = Wall_Time
description = The thread's share of its core's task clock.
advice = None.

[node Counted]
formula = task\-clock / task\-clock
domain = Wall_Time
description = Always 1 when task-clock counted.
advice = None.
)");
  const auto r = run_command(std::string(TOPDOWN_BIN) + " stat --json --model " + model.string() + " -- true");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto report = nlohmann::json::parse(r.err);
  ASSERT_EQ(report["nodes"].size(), 2u);
  const auto& share = report["nodes"][0];
  EXPECT_EQ(share["name"], "Thread_Share");
  EXPECT_TRUE(share["value"].is_null());
  EXPECT_EQ(share["missing_events"], nlohmann::json::array({"task-clock:percore"})) << share.dump();
  EXPECT_EQ(report["nodes"][1]["value"], 1.0);
}

}  // namespace
}  // namespace topdown::testing
