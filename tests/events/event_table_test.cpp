#include <gtest/gtest.h>

#include "common/error.h"
#include "events/event_table.h"
#include "resolver_fixture.h"

namespace topdown::events {
namespace {

using testing::offline_config;
using topdown::testing::TempTree;

TEST(EventTable, ParsesEntriesAttributesAndComments) {
  const EventTable table = EventTable::parse(
      "# a comment\n"
      "\n"
      "  ev_a = cpu/event=0x1a0,umask=0x1/   # trailing comment\n"
      "EV.B=cpu/event=0x3c/ counters=0-3 fixed=1\n"
      "ev_c = r76 counters=0,2 uncore\n",
      "dir/test_cpu.events");
  EXPECT_EQ(table.name(), "test_cpu");
  ASSERT_EQ(table.entries().size(), 3u);
  const TableEntry* a = table.find("EV_A");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->name, "ev_a");
  EXPECT_EQ(a->definition, "cpu/event=0x1a0,umask=0x1/");
  EXPECT_EQ(a->counter_mask, ~0ull);
  EXPECT_EQ(a->fixed_counter, std::nullopt);
  EXPECT_FALSE(a->uncore);
  EXPECT_EQ(a->where.line, 3);
  EXPECT_EQ(a->where.column, 3);
  EXPECT_EQ(a->definition_where.column, 10);
  const TableEntry* b = table.find("ev.b");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->counter_mask, 0xFu);
  EXPECT_EQ(b->fixed_counter, 1);
  const TableEntry* c = table.find("ev_c");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->counter_mask, 0x5u);
  EXPECT_TRUE(c->uncore);
  EXPECT_EQ(table.find("ev_d"), nullptr);
}

void expect_parse_error(const std::string& text, const std::string& message) {
  try {
    EventTable::parse(text, "t.events");
    FAIL() << "no exception for: " << text;
  } catch (const ParseError& error) {
    EXPECT_EQ(std::string(error.what()), message);
  }
}

TEST(EventTable, ErrorsPointAtFileLineAndColumn) {
  expect_parse_error("ok = r1\nno_equals cpu/event=1/\n", "t.events:2:1: expected 'name = pmu/terms/ [attributes]'");
  expect_parse_error("two words = r1\n", "t.events:1:1: expected 'name = pmu/terms/ [attributes]'");
  expect_parse_error("bad:name = r1\n", "t.events:1:1: event names use letters, digits, '_', '.', '-' and '/' only");
  expect_parse_error("a =   \n", "t.events:1:4: missing definition after '='");
  expect_parse_error("a = cycles\n", "t.events:1:5: definition 'cycles' is not like cpu/event=0x76/ or r76");
  expect_parse_error("a = r1 colour=red\n",
                     "t.events:1:8: unknown attribute 'colour=red'; use counters=0-3, fixed=N, "
                     "uncore or topdown_metric");
  expect_parse_error("a = r1 counters=3-1\n", "t.events:1:8: counters: '3-1' is not a list of indexes like 0-3,6");
  expect_parse_error("a = r1\n\nA = r2\n", "t.events:3:1: event 'A' is defined twice (first on line 1)");
}

TEST(EventTable, MissingFileIsAnError) { EXPECT_THROW(EventTable::load("/nonexistent/x.events"), Error); }

TEST(EventTable, BadTermInATableIsReportedAtItsDefinition) {
  TempTree tree;
  const auto file = tree.write("bad.events", "good = cpu/event=0x76/\nbad =  cpu/event=0x76,cmsk=1/\n");
  ResolverConfig config = offline_config(testing::zen5(), tree);
  config.tables = {file};
  try {
    Resolver resolver(config);
    FAIL() << "no exception";
  } catch (const ParseError& error) {
    EXPECT_EQ(error.where().line, 2);
    EXPECT_EQ(error.where().column, 8);
    EXPECT_NE(std::string(error.what()).find("unknown term 'cmsk' for PMU 'cpu'"), std::string::npos);
  }
}

struct ZenEvent {
  const char* name;
  uint64_t config;
};

// Every event of AMD's pipeline utilization analysis, packed by hand:
// config = (event & 0xff) | umask << 8 | (event >> 8) << 32.
constexpr ZenEvent kZenPipelineEvents[] = {
    {"ls_not_halted_cyc", 0x76},
    {"de_no_dispatch_per_slot.no_ops_from_frontend", 0x1000000A0 | 0x0100},
    {"de_no_dispatch_per_slot.backend_stalls", 0x1000000A0 | 0x1E00},
    {"de_no_dispatch_per_slot.smt_contention", 0x1000000A0 | 0x6000},
    {"de_src_op_disp.all", 0x07AA},
    {"ex_ret_ops", 0xC1},
    {"ex_ret_brn_misp", 0xC3},
    {"ex_no_retire.not_complete", 0x02D6},
    {"ex_no_retire.load_not_complete", 0xA2D6},
    {"ex_ret_ucode_ops", 0x1000000C2},
    {"ex_ret_instr", 0xC0},
    {"resyncs_or_nc_redirects", 0x96},
};

void expect_pipeline_events(const char* table_file, bool zen5) {
  TempTree tree;
  ResolverConfig config = offline_config(testing::zen5(), tree);
  config.tables = {testing::models_dir() / table_file};
  const Resolver resolver(config);
  for (const ZenEvent& event : kZenPipelineEvents) {
    SCOPED_TRACE(event.name);
    const Encoding encoding = resolver.resolve(event.name);
    EXPECT_EQ(encoding.config, event.config);
    EXPECT_EQ(encoding.config1, 0u);
    EXPECT_EQ(encoding.type, 4u);
    EXPECT_EQ(encoding.counter_mask, ~0ull);
    EXPECT_EQ(encoding.fixed_counter, std::nullopt);
    EXPECT_EQ(encoding.source, std::string("table:") + std::filesystem::path(table_file).stem().string());
  }
  EXPECT_EQ(resolver.knows("bp_redirects.resync"), zen5);
  if (zen5) {
    EXPECT_EQ(resolver.resolve("bp_redirects.resync").config, 0x019Fu);
  }
  EXPECT_EQ(resolver.resolve("cycles").config, 0x76u);
  EXPECT_EQ(resolver.resolve("instructions").config, 0xC0u);
  // Frontend latency counts cycles with all dispatch slots empty.
  EXPECT_EQ(resolver.resolve("de_no_dispatch_per_slot.no_ops_from_frontend:c8").config, 0x1080000A0ull | 0x100);
}

TEST(ShippedTables, Zen5HasThePipelineEvents) { expect_pipeline_events("amd_zen5.events", true); }
TEST(ShippedTables, Zen4HasThePipelineEvents) { expect_pipeline_events("amd_zen4.events", false); }

TEST(ShippedTables, IntelFixedCounterEvents) {
  TempTree tree;
  ResolverConfig config = offline_config(testing::haswell(), tree);
  config.tables = {testing::models_dir() / "intel_core.events"};
  const Resolver resolver(config);
  const Encoding instructions = resolver.resolve("INST_RETIRED.ANY");
  EXPECT_EQ(instructions.config, 0xC0u);
  EXPECT_EQ(instructions.fixed_counter, 0);
  const Encoding any = resolver.resolve("cpu_clk_unhalted.thread_any");
  EXPECT_EQ(any.config, 0x20003Cu);
  EXPECT_EQ(any.fixed_counter, 1);
  EXPECT_EQ(any.name, "cpu_clk_unhalted.thread_any");
  EXPECT_EQ(resolver.resolve("CPU_CLK_UNHALTED.REF_TSC").config, 0x300u);
  EXPECT_EQ(resolver.resolve("CPU_CLK_UNHALTED.REF_TSC").fixed_counter, 2);
}

TEST(ShippedTables, PerfMetricsFieldsTakeNoCounterAndMatchPerfsNames) {
  TempTree tree;
  ResolverConfig config = offline_config(testing::haswell(), tree);
  config.tables = {testing::models_dir() / "intel_core.events"};
  const Resolver resolver(config);
  const Encoding retiring = resolver.resolve("PERF_METRICS.RETIRING");
  EXPECT_TRUE(retiring.topdown_metric);
  EXPECT_EQ(retiring.config, 0x8000u);
  EXPECT_FALSE(retiring.fixed_counter.has_value());
  EXPECT_EQ(resolver.resolve("PERF_METRICS.MEMORY_BOUND").config, 0x8700u);
  // perf's spellings are the same encodings, so perf stat files import.
  EXPECT_EQ(resolver.resolve("topdown-fe-bound").config, resolver.resolve("PERF_METRICS.FRONTEND_BOUND").config);
  EXPECT_TRUE(resolver.resolve("topdown-fe-bound").topdown_metric);
  EXPECT_EQ(resolver.resolve("slots").config, 0x400u);
  EXPECT_EQ(resolver.resolve("slots").fixed_counter, 3);
  EXPECT_FALSE(resolver.resolve("TOPDOWN.SLOTS").topdown_metric);
}

TEST(ShippedTables, EarlierTableWins) {
  TempTree tree;
  const auto first = tree.write("first.events", "cycles = cpu/event=0x3c/ counters=0\n");
  ResolverConfig config = offline_config(testing::zen5(), tree);
  config.tables = {first, testing::models_dir() / "amd_zen5.events"};
  const Resolver resolver(config);
  EXPECT_EQ(resolver.resolve("cycles").config, 0x3Cu);
  EXPECT_EQ(resolver.resolve("cycles").counter_mask, 1u);
  EXPECT_EQ(resolver.resolve("cycles").source, "table:first");
  EXPECT_EQ(resolver.resolve("ex_ret_ops").source, "table:amd_zen5");
}

}  // namespace
}  // namespace topdown::events
