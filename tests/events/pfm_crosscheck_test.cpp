// libpfm4 against our tables (Zen 4) and against Intel's perfmon event list
// (Haswell): the same names must give the same encodings.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "events/pfm_events.h"
#include "resolver_fixture.h"

namespace topdown::events {
namespace {

using testing::offline_config;
using topdown::testing::TempTree;

constexpr const char* kZen4Pmu = "amd64_fam19h_zen4";

TEST(PfmCrossCheck, Zen4TableAgreesWithLibpfm) {
  if (!pfm_knows_pmu(kZen4Pmu)) GTEST_SKIP() << "this libpfm4 does not know " << kZen4Pmu;
  TempTree tree;
  const cpu::CpuInfo zen4 = testing::make_cpu(cpu::Vendor::Amd, 0x19, 0x11);
  ResolverConfig table_config = offline_config(zen4, tree);
  table_config.tables = {testing::models_dir() / "amd_zen4.events"};
  ResolverConfig pfm_config = table_config;
  pfm_config.tables.clear();
  pfm_config.pfm_pmu = kZen4Pmu;
  const Resolver table(table_config);
  const Resolver pfm(pfm_config);

  // Our names (perf's) and libpfm4's names for the same events.
  const std::map<std::string, std::string> both_know = {
      {"ls_not_halted_cyc", "CYCLES_NOT_IN_HALT"},
      {"de_no_dispatch_per_slot.no_ops_from_frontend", "DISPATCH_STALLS_1:FE_NO_OPS"},
      {"de_no_dispatch_per_slot.backend_stalls", "DISPATCH_STALLS_1:BE_STALLS"},
      {"de_no_dispatch_per_slot.smt_contention", "DISPATCH_STALLS_1:SMT_CONTENTION"},
      {"de_src_op_disp.all", "OPS_SOURCE_DISPATCHED_FROM_DECODER:DECODER:OPCACHE:LOOP_BUFFER"},
      {"ex_ret_ops", "RETIRED_OPS"},
      {"ex_ret_brn_misp", "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED"},
      {"resyncs_or_nc_redirects", "RESYNCS"},
      {"ex_no_retire.not_complete", "CYCLES_NO_RETIRE:NOT_COMPLETE_LOAD_AND_ALU"},
      {"ex_no_retire.load_not_complete", "CYCLES_NO_RETIRE:NOT_COMPLETE_MISSING_LOAD"},
      {"ex_ret_ucode_ops", "RETIRED_UCODE_OPS"},
      {"ex_ret_instr", "RETIRED_INSTRUCTIONS"},
      {"de_no_dispatch_per_slot.no_ops_from_frontend:c6", "DISPATCH_STALLS_1:FE_NO_OPS:c6"},
  };
  for (const auto& [ours, theirs] : both_know) {
    SCOPED_TRACE(ours + " vs " + theirs);
    const Encoding from_table = table.resolve(ours);
    const Encoding from_pfm = pfm.resolve(theirs);
    EXPECT_EQ(from_table.config, from_pfm.config);
    EXPECT_EQ(from_table.config1, from_pfm.config1);
    EXPECT_EQ(from_pfm.source, "libpfm4");
  }
  // Our :c6 packs the same bits as libpfm4's own c=6.
  const auto native = pfm_encode(kZen4Pmu, "DISPATCH_STALLS_1:FE_NO_OPS:c=6");
  ASSERT_TRUE(native.has_value());
  EXPECT_EQ(table.resolve("de_no_dispatch_per_slot.no_ops_from_frontend:c6").config, native->config);
}

// Intel's perfmon list, read at test time (not part of the repository).
const std::string kHaswellEvents =
    std::string(TOPDOWN_SOURCE_DIR) + "/../shared/reference/intel-perfmon/HSW/events/haswell_core.json";

struct IntelFields {
  uint64_t event = 0, umask = 0, cmask = 0, inv = 0, any = 0, edge = 0, offcore = 0;
};

IntelFields fields_of(const Encoding& encoding) {
  const uint64_t c = encoding.config;
  return {c & 0xFF, (c >> 8) & 0xFF, (c >> 24) & 0xFF, (c >> 23) & 1, (c >> 21) & 1, (c >> 18) & 1, encoding.config1};
}

uint64_t number(const nlohmann::json& event, const char* key) {
  const std::string text = event.at(key).get<std::string>();
  // "0xB7, 0xBB": the two offcore events; the first is OFFCORE_RESPONSE_0.
  return std::stoull(text.substr(0, text.find(',')), nullptr, 0);
}

IntelFields fields_of(const nlohmann::json& event) {
  return {number(event, "EventCode"), number(event, "UMask"),     number(event, "CounterMask"),
          number(event, "Invert"),    number(event, "AnyThread"), number(event, "EdgeDetect"),
          number(event, "MSRValue")};
}

struct HaswellCase {
  const char* name;                    // as a TMA model writes it
  const char* perfmon;                 // the perfmon event it must match
  IntelFields (*adjust)(IntelFields);  // what the modifiers change
  bool exclude_user = false;
  bool exclude_kernel = false;
};

IntelFields same(IntelFields f) { return f; }

class HaswellCrossCheck : public ::testing::Test {
 protected:
  void SetUp() override {
    std::ifstream in(kHaswellEvents);
    if (!in) GTEST_SKIP() << kHaswellEvents << " is absent; the Haswell cross-check needs it";
    if (!pfm_knows_pmu("hsw")) GTEST_SKIP() << "this libpfm4 does not know hsw";
    const nlohmann::json list = nlohmann::json::parse(in);
    for (const auto& event : list.at("Events")) {
      perfmon_[event.at("EventName").get<std::string>()] = event;
    }
  }

  Resolver make_resolver(std::vector<std::filesystem::path> tables) const {
    ResolverConfig config = offline_config(testing::haswell(), tree_);
    config.pfm_pmu = "hsw";
    config.tables = std::move(tables);
    return Resolver(config);
  }

  void expect_matches(const Encoding& encoding, const IntelFields& want) const {
    const IntelFields got = fields_of(encoding);
    EXPECT_EQ(got.event, want.event);
    EXPECT_EQ(got.umask, want.umask);
    EXPECT_EQ(got.cmask, want.cmask);
    EXPECT_EQ(got.inv, want.inv);
    EXPECT_EQ(got.any, want.any);
    EXPECT_EQ(got.edge, want.edge);
    EXPECT_EQ(got.offcore, want.offcore);
  }

  TempTree tree_;
  std::map<std::string, nlohmann::json> perfmon_;
};

TEST_F(HaswellCrossCheck, LibpfmHswMatchesPerfmon) {
  const HaswellCase cases[] = {
      {"UOPS_EXECUTED.CORE", "UOPS_EXECUTED.CORE", same},
      {"UOPS_EXECUTED.CORE:c1", "UOPS_EXECUTED.CORE", [](IntelFields f) { return f.cmask = 1, f; }},
      {"UOPS_EXECUTED.CORE:i1:c1", "UOPS_EXECUTED.CORE", [](IntelFields f) { return f.inv = 1, f.cmask = 1, f; }},
      {"IDQ_UOPS_NOT_DELIVERED.CORE", "IDQ_UOPS_NOT_DELIVERED.CORE", same},
      {"IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE", same},
      {"UOPS_ISSUED.ANY", "UOPS_ISSUED.ANY", same},
      {"UOPS_RETIRED.RETIRE_SLOTS", "UOPS_RETIRED.RETIRE_SLOTS", same},
      {"INT_MISC.RECOVERY_CYCLES", "INT_MISC.RECOVERY_CYCLES", same},
      {"INT_MISC.RECOVERY_CYCLES_ANY", "INT_MISC.RECOVERY_CYCLES_ANY", same},
      {"BR_MISP_EXEC.ALL_BRANCHES:u0xE4", "BR_MISP_EXEC.ALL_BRANCHES", [](IntelFields f) { return f.umask = 0xE4, f; }},
      {"MACHINE_CLEARS.COUNT", "MACHINE_CLEARS.COUNT", same},
      {"CYCLE_ACTIVITY.STALLS_LDM_PENDING", "CYCLE_ACTIVITY.STALLS_LDM_PENDING", same},
      {"IDQ.MS_UOPS:e1:c1", "IDQ.MS_SWITCHES", same},
      {"MEM_LOAD_UOPS_RETIRED.L3_HIT:SUP", "MEM_LOAD_UOPS_RETIRED.L3_HIT", same, true, false},
      {"RESOURCE_STALLS.SB:USER", "RESOURCE_STALLS.SB", same, false, true},
      {"CPU_CLK_UNHALTED.THREAD_P", "CPU_CLK_UNHALTED.THREAD_P", same},
      {"UOPS_EXECUTED.CYCLES_GE_1_UOP_EXEC", "UOPS_EXECUTED.CYCLES_GE_1_UOP_EXEC", same},
      {"ARITH.DIVIDER_UOPS", "ARITH.DIVIDER_UOPS", same},
  };
  const Resolver resolver = make_resolver({});
  for (const HaswellCase& c : cases) {
    SCOPED_TRACE(c.name);
    ASSERT_EQ(perfmon_.count(c.perfmon), 1u);
    const Encoding encoding = resolver.resolve(c.name);
    EXPECT_EQ(encoding.source, "libpfm4");
    expect_matches(encoding, c.adjust(fields_of(perfmon_.at(c.perfmon))));
    EXPECT_EQ(encoding.exclude_user, c.exclude_user);
    EXPECT_EQ(encoding.exclude_kernel, c.exclude_kernel);
  }
}

constexpr const char* kOffcore = "OFFCORE_RESPONSE.DEMAND_RFO.L3_HIT.HITM_OTHER_CORE";
// perfmon's L3_HIT response covers bits 18-21; libpfm4 4.13's covers 18-20.
constexpr uint64_t kL3HitBitLibpfmLacks = 1ull << 21;

TEST_F(HaswellCrossCheck, LibpfmOffcoreDiffersFromPerfmonInOneBit) {
  const Encoding encoding = make_resolver({}).resolve(kOffcore);
  EXPECT_EQ(encoding.source, "libpfm4");
  IntelFields want = fields_of(perfmon_.at(kOffcore));
  ASSERT_NE(want.offcore & kL3HitBitLibpfmLacks, 0u);
  want.offcore &= ~kL3HitBitLibpfmLacks;
  expect_matches(encoding, want);
}

TEST_F(HaswellCrossCheck, HaswellTableGivesPerfmonsOffcoreEncoding) {
  const Resolver resolver = make_resolver({testing::models_dir() / "intel_haswell.events"});
  const Encoding encoding = resolver.resolve(std::string(kOffcore) + ":c1");
  EXPECT_EQ(encoding.source, "table:intel_haswell");
  EXPECT_EQ(encoding.counter_mask, 0xFu);
  expect_matches(encoding, [&] {
    IntelFields want = fields_of(perfmon_.at(kOffcore));
    want.cmask = 1;
    return want;
  }());
}

}  // namespace
}  // namespace topdown::events
