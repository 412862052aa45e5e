#include <gtest/gtest.h>

#include "import/runs.h"
#include "import_fixture.h"

namespace topdown::import::testing {
namespace {

// Two runs of 1 s and 2 s: their mean length is 1.5 s.
const char* kTwoRuns =
    "# started on Mon Jan  6 10:00:00 2025\n\n"
    "100,,cycles,1000000000,100.00,,\n"
    "10,,only-first,1000000000,100.00,,\n"
    "# started on Mon Jan  6 10:00:02 2025\n\n"
    "400,,cycles,1000000000,50.00,,\n"
    "40,,only-second,2000000000,100.00,,\n";

TEST(Runs, EachRunIsKeptAndRescaledToTheMeanLength) {
  const WholeFile file = read_whole(kTwoRuns);
  EXPECT_EQ(file.info.runs, 2u);
  ASSERT_EQ(file.whole.runs.size(), 2u);
  const counts::Count* first = file.whole.runs[0].find("only-first");
  ASSERT_NE(first, nullptr);
  EXPECT_DOUBLE_EQ(first->value, 15);
  EXPECT_EQ(first->time_enabled, 1500000000u);
  EXPECT_EQ(file.whole.runs[0].find("only-second"), nullptr);
  // Counted half of run 2's 2 s: 400 raw is 800 scaled over 2 s, 600 over 1.5 s.
  EXPECT_DOUBLE_EQ(*file.whole.runs[1].find("cycles")->scaled(), 600);
  // Rates: each event's counts over its running time in the runs that
  // counted it, at 1.5 s: (150 + 300) over (1.5 + 0.75) s of running.
  EXPECT_DOUBLE_EQ(*file.whole.sample.find("cycles")->scaled(), 450 / 2.25 * 1.5);
  EXPECT_DOUBLE_EQ(*file.whole.sample.find("only-second")->scaled(), 30);
  EXPECT_TRUE(file.info.repeated_events.empty());  // one row each per run: nothing pooled
}

TEST(Runs, OneRunIsReadAsBefore) {
  const WholeFile file = read_whole("# started on Mon Jan  6 10:00:00 2025\n\n100,,cycles,1000000000,100.00,,\n");
  EXPECT_EQ(file.info.runs, 1u);
  EXPECT_TRUE(file.whole.runs.empty());
  EXPECT_DOUBLE_EQ(value_of(file.whole, "cycles"), 100);
}

// A row whose counter never ran (run time 0) counted nothing: the event is
// missing from that run, in a file of one run or of several, never a count
// over no time (which a run's rescaling would blow up).
TEST(Runs, ARowThatNeverRanIsMissingFromItsRun) {
  const WholeFile file = read_whole(
      "# started on Mon Jan  6 10:00:00 2025\n\n"
      "5574106661,,cycles,0,100.00,,\n"
      "10,,only-first,1000000000,100.00,,\n"
      "# started on Mon Jan  6 10:00:02 2025\n\n"
      "400,,cycles,1000000000,100.00,,\n");
  ASSERT_EQ(file.whole.runs.size(), 2u);
  EXPECT_EQ(file.whole.runs[0].find("cycles"), nullptr);
  EXPECT_DOUBLE_EQ(file.whole.runs[1].find("cycles")->value, 400);
  EXPECT_DOUBLE_EQ(*file.whole.sample.find("cycles")->scaled(), 400);  // run 2's alone
  EXPECT_EQ(file.info.events, (std::vector<std::string>{"cycles", "only-first"}));
  const WholeFile one_run = read_whole("5574106661,,cycles,0,100.00,,\n10,,instructions,1000000000,100.00,,\n");
  EXPECT_EQ(one_run.whole.sample.find("cycles"), nullptr);
  EXPECT_DOUBLE_EQ(value_of(one_run.whole, "instructions"), 10);
}

TEST(Runs, CopiesAreNumberedByRun) {
  counts::Sample rates;
  rates.events.emplace("cycles", counts::Count{5, 1, 1});
  counts::Sample run1;
  run1.events.emplace("cycles", counts::Count{4, 1, 1});
  counts::Sample run2;
  run2.events.emplace("cycles", counts::Count{6, 1, 1});
  const counts::Sample sample = with_run_copies(rates, {run1, run2});
  EXPECT_DOUBLE_EQ(sample.find("cycles")->value, 5);
  EXPECT_DOUBLE_EQ(sample.find("cycles", 1)->value, 4);
  EXPECT_DOUBLE_EQ(sample.find("cycles", 2)->value, 6);
}

}  // namespace
}  // namespace topdown::import::testing
