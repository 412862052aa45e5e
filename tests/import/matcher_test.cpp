#include <gtest/gtest.h>

#include <filesystem>

#include "events/model_resolver.h"
#include "import/import.h"

namespace topdown::import {
namespace {

const std::filesystem::path kModels = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models";

using Names = std::vector<std::string>;

class ModelMatching : public ::testing::Test {
 protected:
  void load(const std::string& name) {
    model_ = model::load_model(kModels / (name + ".model"));
    resolver_.emplace(events::offline_resolver_config(model_));
    matcher_.emplace(model_, *resolver_);
  }
  // Translates a sample with one count per name (value = its position + 1).
  EventMatcher::Translation translate(const Names& file_events) {
    counts::Sample sample;
    for (size_t i = 0; i < file_events.size(); ++i) {
      sample.events[file_events[i]] = counts::Count{static_cast<double>(i + 1), 10, 10};
    }
    return matcher_->translate(sample, file_events);
  }

  model::Model model_;
  std::optional<events::Resolver> resolver_;
  std::optional<EventMatcher> matcher_;
};

TEST_F(ModelMatching, ModelEventsOfZen5) {
  load("zen5");
  const auto events = model_events(model_);
  EXPECT_TRUE(events.count("ls_not_halted_cyc"));
  EXPECT_TRUE(events.count("de_no_dispatch_per_slot.no_ops_from_frontend:c8"));
  EXPECT_TRUE(events.count("de_no_dispatch_per_slot.smt_contention"));  // used only when SMT is on
  EXPECT_FALSE(events.count("SLOTS"));
  EXPECT_FALSE(events.count("smt_enabled"));
}

TEST_F(ModelMatching, Zen5ByNameInAnyCaseAndByRawEncoding) {
  load("zen5");
  auto result = translate({"LS_NOT_HALTED_CYC", "r00c1", "cpu/event=0x1a0,umask=0x01/",
                           "cpu/event=0x1a0,umask=0x1,cmask=8/", "cpu/event=0xd6,umask=0xa2/u", "page-faults"});
  EXPECT_EQ(matcher_->targets("LS_NOT_HALTED_CYC"), Names{"ls_not_halted_cyc"});
  EXPECT_EQ(matcher_->targets("r00c1"), Names{"ex_ret_ops"});
  EXPECT_EQ(matcher_->targets("cpu/event=0x1a0,umask=0x01/"), Names{"de_no_dispatch_per_slot.no_ops_from_frontend"});
  EXPECT_EQ(matcher_->targets("cpu/event=0x1a0,umask=0x1,cmask=8/"),
            Names{"de_no_dispatch_per_slot.no_ops_from_frontend:c8"});
  // perf's :u does not keep a count from a model event that fixes no privilege level.
  EXPECT_EQ(matcher_->targets("cpu/event=0xd6,umask=0xa2/u"), Names{"ex_no_retire.load_not_complete"});
  EXPECT_EQ(result.unmatched, Names{"page-faults"});
  EXPECT_DOUBLE_EQ(result.sample.find("ls_not_halted_cyc")->value, 1);
  EXPECT_DOUBLE_EQ(result.sample.find("ex_ret_ops")->value, 2);
  EXPECT_DOUBLE_EQ(result.sample.find("de_no_dispatch_per_slot.no_ops_from_frontend:c8")->value, 4);
  EXPECT_DOUBLE_EQ(result.sample.find("ex_no_retire.load_not_complete")->value, 5);
  EXPECT_DOUBLE_EQ(result.sample.find("page-faults")->value, 6);
  EXPECT_EQ(result.sample.find("LS_NOT_HALTED_CYC"), nullptr);
}

// --print-perf of rotating groups names the copy of an event in group N
// "EVENT:groupN"; it feeds the same copy of the model's event.
TEST_F(ModelMatching, GroupCopiesFeedTheModelEventsCopy) {
  load("zen5");
  auto result = translate({"LS_NOT_HALTED_CYC", "ex_ret_ops", "LS_NOT_HALTED_CYC:group2", "nonsense:group2"});
  EXPECT_DOUBLE_EQ(result.sample.find("ls_not_halted_cyc")->value, 1);
  EXPECT_DOUBLE_EQ(result.sample.find("ls_not_halted_cyc", 2)->value, 3);
  EXPECT_EQ(result.unmatched, Names{"nonsense:group2"});
}

TEST_F(ModelMatching, TheModelsOwnNameWinsOverAnAliasWithTheSameEncoding) {
  load("zen5");
  // "cycles" has ls_not_halted_cyc's encoding, but the file also names it.
  auto result = translate({"cycles", "ls_not_halted_cyc"});
  EXPECT_EQ(matcher_->targets("ls_not_halted_cyc"), Names{"ls_not_halted_cyc"});
  EXPECT_TRUE(matcher_->targets("cycles").empty());
  EXPECT_EQ(result.unmatched, Names{"cycles"});
  EXPECT_DOUBLE_EQ(result.sample.find("ls_not_halted_cyc")->value, 2);
}

TEST_F(ModelMatching, UncountedEventsStayMissingAndUnknownOnesAreListed) {
  load("zen5");
  counts::Sample sample;
  sample.events["r0c0"] = counts::Count{5, 10, 10};
  sample.duration_s = 3;
  auto result = matcher_->translate(sample, {"r0c0", "ex_ret_brn_misp", "no_such_event"});
  EXPECT_DOUBLE_EQ(result.sample.find("ex_ret_instr")->value, 5);
  EXPECT_EQ(result.sample.find("ex_ret_brn_misp"), nullptr);
  EXPECT_EQ(result.unmatched, Names{"no_such_event"});
  EXPECT_DOUBLE_EQ(result.sample.duration_s, 3);
}

TEST_F(ModelMatching, HaswellByPerfLowerCaseNamesAndRawEncodings) {
  if (!std::filesystem::exists(kModels / "hsw.model")) GTEST_SKIP() << "models/hsw.model does not exist yet";
  load("hsw");
  translate({"cpu_clk_unhalted.thread", "cpu/event=0x3c/k", "cpu/event=0xb1,umask=0x2,cmask=1/",
             "uops_retired.retire_slots"});
  EXPECT_EQ(matcher_->targets("cpu_clk_unhalted.thread"), Names{"CPU_CLK_UNHALTED.THREAD"});
  // A model event that fixes the privilege level takes only a count of that level.
  EXPECT_EQ(matcher_->targets("cpu/event=0x3c/k"), Names{"CPU_CLK_UNHALTED.THREAD_P:SUP"});
  EXPECT_EQ(matcher_->targets("cpu/event=0xb1,umask=0x2,cmask=1/"), Names{"UOPS_EXECUTED.CORE:c1"});
  EXPECT_EQ(matcher_->targets("uops_retired.retire_slots"), Names{"UOPS_RETIRED.RETIRE_SLOTS"});
}

// toplev and perf spell the kernel-mode counts of the fixed-counter events
// with lower-case modifiers; each feeds the model's general-counter twin of
// the same privilege level, which the kernel-time Info metrics divide.
TEST_F(ModelMatching, ToplevSpellingsOfKernelCountsFeedTheModelsSupEvents) {
  for (const std::string model : {"hsw", "skl", "icl", "spr"}) {
    SCOPED_TRACE(model);
    load(model);
    auto result = translate({"CPU_CLK_UNHALTED.THREAD", "CPU_CLK_UNHALTED.THREAD:sup", "INST_RETIRED.ANY",
                             "inst_retired.any:Sup", "BR_INST_RETIRED.FAR_BRANCH:user"});
    EXPECT_EQ(matcher_->targets("CPU_CLK_UNHALTED.THREAD:sup"), Names{"CPU_CLK_UNHALTED.THREAD_P:SUP"});
    EXPECT_EQ(matcher_->targets("inst_retired.any:Sup"), Names{"INST_RETIRED.ANY_P:SUP"});
    EXPECT_EQ(matcher_->targets("BR_INST_RETIRED.FAR_BRANCH:user"), Names{"BR_INST_RETIRED.FAR_BRANCH:USER"});
    EXPECT_TRUE(result.unmatched.empty()) << ::testing::PrintToString(result.unmatched);
    EXPECT_DOUBLE_EQ(result.sample.find("CPU_CLK_UNHALTED.THREAD")->value, 1);
    EXPECT_DOUBLE_EQ(result.sample.find("CPU_CLK_UNHALTED.THREAD_P:SUP")->value, 2);
    EXPECT_DOUBLE_EQ(result.sample.find("INST_RETIRED.ANY")->value, 3);
    EXPECT_DOUBLE_EQ(result.sample.find("INST_RETIRED.ANY_P:SUP")->value, 4);
    EXPECT_DOUBLE_EQ(result.sample.find("BR_INST_RETIRED.FAR_BRANCH:USER")->value, 5);
  }
}

TEST_F(ModelMatching, AKernelOnlyCountNeverFeedsAnEventWithoutPrivilegeModifier) {
  load("hsw");
  // Only the kernel's cycles: the model's CPU_CLK_UNHALTED.THREAD (all the
  // run's cycles) stays missing instead of taking them.
  auto kernel_only = translate({"CPU_CLK_UNHALTED.THREAD:sup", "cpu/event=0xc0/k"});
  EXPECT_EQ(matcher_->targets("CPU_CLK_UNHALTED.THREAD:sup"), Names{"CPU_CLK_UNHALTED.THREAD_P:SUP"});
  EXPECT_EQ(matcher_->targets("cpu/event=0xc0/k"), Names{"INST_RETIRED.ANY_P:SUP"});
  EXPECT_EQ(kernel_only.sample.find("CPU_CLK_UNHALTED.THREAD"), nullptr);
  EXPECT_EQ(kernel_only.sample.find("INST_RETIRED.ANY"), nullptr);
}

TEST_F(ModelMatching, TheSamePrivilegeLevelWinsWhateverTheFileOrder) {
  load("hsw");
  // A user-mode count (perf at perf_event_paranoid 2) stands for an event
  // without a privilege modifier only when the file has none of its level.
  auto both = translate({"cpu/event=0x3c/u", "cpu/event=0x3c/", "cpu/event=0xc0/u"});
  EXPECT_EQ(matcher_->targets("cpu/event=0x3c/"), Names{"CPU_CLK_UNHALTED.THREAD"});
  EXPECT_EQ(both.unmatched, Names{"cpu/event=0x3c/u"});
  EXPECT_EQ(matcher_->targets("cpu/event=0xc0/u"), Names{"INST_RETIRED.ANY"});
  EXPECT_DOUBLE_EQ(both.sample.find("CPU_CLK_UNHALTED.THREAD")->value, 2);
  EXPECT_DOUBLE_EQ(both.sample.find("INST_RETIRED.ANY")->value, 3);
  // Neither a user-mode nor an all-modes count feeds a kernel-only event.
  EXPECT_EQ(both.sample.find("CPU_CLK_UNHALTED.THREAD_P:SUP"), nullptr);
  EXPECT_EQ(both.sample.find("INST_RETIRED.ANY_P:SUP"), nullptr);
}

// msr/tsc/ and the uncore clock (UNC_CHA_CLOCKTICKS, UNC_C_CLOCKTICKS) are
// both config 0 of a PMU this machine lacks: only the PMU tells them apart.
TEST_F(ModelMatching, AnEncodingMatchesOnlyTheSamePmusEvent) {
  for (const std::string model : {"icx", "skx", "clx", "hsx", "bdx"}) {
    SCOPED_TRACE(model);
    load(model);
    auto result = translate({"msr/tsc/", "CPU_CLK_UNHALTED.THREAD"});
    EXPECT_EQ(matcher_->targets("msr/tsc/"), Names{"msr/tsc/"});
    EXPECT_DOUBLE_EQ(result.sample.find("msr/tsc/")->value, 1);
    EXPECT_DOUBLE_EQ(result.sample.find("CPU_CLK_UNHALTED.THREAD")->value, 2);
    for (const auto& [key, count] : result.sample.events) {
      EXPECT_FALSE(key.event.starts_with("UNC_")) << key.event << " fed by the TSC or the core clock";
    }
  }
}

// toplev and perf write EXE_ACTIVITY.EXE_BOUND_0_PORTS as the sheet does,
// EXE_ACTIVITY.3_PORTS_UTIL with its unit mask replaced: the model's event
// either way (from Ice Lake on; Skylake's has another unit mask).
class UnitMaskSpelling : public ModelMatching, public ::testing::WithParamInterface<std::string> {};

TEST_P(UnitMaskSpelling, ReadsAsTheModelsEvent) {
  load(GetParam());
  // Ice Lake's model spells it as toplev does; the later ones as perfmon.
  const std::string ours = GetParam() == "icl" ? "EXE_ACTIVITY.3_PORTS_UTIL:u0x80" : "EXE_ACTIVITY.EXE_BOUND_0_PORTS";
  const auto result = translate({"EXE_ACTIVITY.3_PORTS_UTIL:u0x80"});
  EXPECT_EQ(result.unmatched, Names{});
  EXPECT_EQ(matcher_->targets("EXE_ACTIVITY.3_PORTS_UTIL:u0x80"), Names{ours});
  ASSERT_NE(result.sample.find(ours), nullptr);
  EXPECT_DOUBLE_EQ(result.sample.find(ours)->value, 1);
}

INSTANTIATE_TEST_SUITE_P(EveryModelWithTheEvent, UnitMaskSpelling,
                         ::testing::Values("icl", "tgl", "adl", "mtl", "arl", "lnl", "gnr", "spr"));

// A stream of intervals translates into one result, reused: counts that come
// and go between intervals (a <not counted> row), group copies and unmatched
// names give each time what a fresh translation of that interval gives.
TEST_F(ModelMatching, ATranslationReusedOverIntervalsEqualsAFreshOne) {
  load("zen5");
  const Names file_events = {"ls_not_halted_cyc", "r00c1", "ls_not_halted_cyc:group2", "page-faults",
                             "cpu/event=0x1a0,umask=0x01/"};
  EventMatcher::Translation reused;
  const std::vector<std::vector<bool>> counted_per_interval = {
      {true, true, true, true, true}, {true, true, true, true, true},      {true, false, true, true, false},
      {true, true, true, true, true}, {false, false, false, false, false}, {true, true, true, true, true}};
  for (size_t interval = 0; interval < counted_per_interval.size(); ++interval) {
    SCOPED_TRACE(interval);
    counts::Sample sample;
    sample.duration_s = 0.5 + static_cast<double>(interval);
    for (size_t i = 0; i < file_events.size(); ++i) {
      if (counted_per_interval[interval][i]) {
        sample.events[file_events[i]] = counts::Count{static_cast<double>(100 * interval + i), 10, 5 + interval};
      }
    }
    matcher_->translate(sample, file_events, reused);
    EventMatcher fresh_matcher(model_, *resolver_);
    const EventMatcher::Translation fresh = fresh_matcher.translate(sample, file_events);
    EXPECT_EQ(reused.unmatched, fresh.unmatched);
    EXPECT_EQ(reused.sample.duration_s, fresh.sample.duration_s);
    ASSERT_EQ(reused.sample.events.size(), fresh.sample.events.size());
    for (auto a = reused.sample.events.cbegin(), b = fresh.sample.events.cbegin(); a != reused.sample.events.cend();
         ++a, ++b) {
      EXPECT_EQ(a->first, b->first);
      EXPECT_EQ(a->second.value, b->second.value) << a->first.event;
      EXPECT_EQ(a->second.time_running, b->second.time_running) << a->first.event;
    }
  }
  // The group copy keeps its group; unmatched names keep theirs.
  ASSERT_NE(reused.sample.find("ls_not_halted_cyc", 2), nullptr);
  EXPECT_DOUBLE_EQ(reused.sample.find("ls_not_halted_cyc", 2)->value, 502);
  ASSERT_NE(reused.sample.find("page-faults"), nullptr);
  EXPECT_DOUBLE_EQ(reused.sample.find("page-faults")->value, 503);
  EXPECT_EQ(reused.unmatched, Names{"page-faults"});
}

}  // namespace
}  // namespace topdown::import
