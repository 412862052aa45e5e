#include <gtest/gtest.h>

#include "import_fixture.h"

namespace topdown::import::testing {
namespace {

TEST(PerfStat, PlainCsvWithCommentsRunTimeAndPercent) {
  auto file = read_whole(
      "# started on Mon Jan  6 10:00:00 2025\n"
      "\n"
      "1000,,cycles,2000000,100.00,,\n"
      "750,,instructions,1000000,50.00,0.75,insn per cycle\n"
      ",,,,,1.33,stalled cycles per insn\n"
      "12.50,msec,task-clock,12500000,100.00,0.998,CPUs utilized\n");
  EXPECT_EQ(file.info.format, Format::PerfStat);
  EXPECT_EQ(file.info.separator, ',');
  EXPECT_FALSE(file.info.intervals);
  EXPECT_FALSE(file.info.per_cpu);
  EXPECT_EQ(file.info.rows, 3u);
  EXPECT_EQ(file.info.events, (std::vector<std::string>{"cycles", "instructions", "task-clock"}));
  const counts::Count* cycles = file.whole.sample.find("cycles");
  ASSERT_NE(cycles, nullptr);
  EXPECT_EQ(cycles->value, 1000);
  EXPECT_EQ(cycles->time_running, 2000000u);
  EXPECT_EQ(cycles->time_enabled, 2000000u);
  // Counted half of the time: enabled = run time * 100 / percent.
  const counts::Count* instructions = file.whole.sample.find("instructions");
  ASSERT_NE(instructions, nullptr);
  EXPECT_EQ(instructions->time_running, 1000000u);
  EXPECT_EQ(instructions->time_enabled, 2000000u);
  EXPECT_DOUBLE_EQ(*instructions->scaled(), 1500);
  EXPECT_DOUBLE_EQ(value_of(file.whole, "task-clock"), 12.5e6);  // msec: the kernel's count is in ns
  EXPECT_FALSE(file.whole.time_s);
}

// perf scales RAPL energy to Joules; import brings it back to the kernel's
// count of 2^-32 J, which the models (and live counting) read.
TEST(PerfStat, EnergyInJoulesBecomesTheKernelsRawCount) {
  auto file = read_whole("2.50,Joules,power/energy-pkg/,1000000000,100.00,,\n1000,,cycles,1000000000,100.00,,\n");
  EXPECT_DOUBLE_EQ(value_of(file.whole, "power/energy-pkg/"), 2.5 * 4294967296.0);
  EXPECT_DOUBLE_EQ(value_of(file.whole, "cycles"), 1000);
}

// perf prints the time events in msec (task-clock, cpu-clock) or ns
// (duration_time, user_time), the memory controller's traffic in MiB: each
// is brought back to what the kernel counts (ns, 64-byte lines), which the
// models' formulas read.
TEST(PerfStat, EveryUnitBecomesTheKernelsCount) {
  auto file = read_whole(
      "796.55,msec,task-clock,796550000,100.00,0.999,CPUs utilized\n"
      "796.57,msec,cpu-clock,796570000,100.00,0.999,CPUs utilized\n"
      "797000000,ns,duration_time,797000000,100.00,,\n"
      "12092000,ns,system_time,12092000,100.00,,\n"
      "1.50,MiB,uncore_imc/cas_count_read/,797000000,100.00,,\n"
      "49,,page-faults,796550000,100.00,61.5,/sec\n");
  EXPECT_DOUBLE_EQ(value_of(file.whole, "task-clock"), 796.55e6);
  EXPECT_DOUBLE_EQ(value_of(file.whole, "cpu-clock"), 796.57e6);
  EXPECT_DOUBLE_EQ(value_of(file.whole, "duration_time"), 797000000);
  EXPECT_DOUBLE_EQ(file.whole.sample.duration_s, 0.797);
  EXPECT_DOUBLE_EQ(value_of(file.whole, "system_time"), 12092000);
  EXPECT_DOUBLE_EQ(value_of(file.whole, "uncore_imc/cas_count_read/"), 1.5 * 1048576 / 64);
  EXPECT_DOUBLE_EQ(value_of(file.whole, "page-faults"), 49);
}

TEST(PerfStat, SemicolonSeparatorAndPmuSpellingsWithCommas) {
  auto semicolon = read_whole("5000;;cpu/event=0x3c,umask=0x0/;100;100.00;;\n42;;r00c0;100;100.00;;\n");
  EXPECT_EQ(semicolon.info.separator, ';');
  EXPECT_DOUBLE_EQ(value_of(semicolon.whole, "cpu/event=0x3c,umask=0x0/"), 5000);
  EXPECT_DOUBLE_EQ(value_of(semicolon.whole, "r00c0"), 42);
  // perf does not quote: the commas of a term list are not separators.
  auto comma = read_whole("7,,cpu/event=0xb1,umask=0x2,cmask=1,inv=1/u,100,100.00,,\n");
  EXPECT_EQ(comma.info.events, (std::vector<std::string>{"cpu/event=0xb1,umask=0x2,cmask=1,inv=1/u"}));
  EXPECT_DOUBLE_EQ(value_of(comma.whole, "cpu/event=0xb1,umask=0x2,cmask=1,inv=1/u"), 7);
}

TEST(PerfStat, NotCountedAndNotSupportedAreMissingNotZero) {
  auto file = read_whole(
      "<not counted>,,cycles,0,0.00,,\n"
      "<not supported>,,branches,0,100.00,,\n"
      "9,,instructions,100,100.00,,\n");
  EXPECT_EQ(file.whole.sample.find("cycles"), nullptr);
  EXPECT_EQ(file.whole.sample.find("branches"), nullptr);
  EXPECT_DOUBLE_EQ(value_of(file.whole, "instructions"), 9);
  // Still listed: the file names them.
  EXPECT_EQ(file.info.events.size(), 3u);
}

// Like perf, each CPU's count is scaled by its own running time before the
// CPUs are added: CPU1 counted half its time, 250 stands for 500.
// perf -e 'EVENT,EVENT' or two groups that each need EVENT: two rows of the
// same count, which must not add up to twice the count.
TEST(PerfStat, RepeatedRowsOfOneEventArePooledNotAdded) {
  auto file = read_whole(
      "9000,,ex_ret_ops,2000000,100.00,,\n"
      "4600,,ex_ret_ops,1000000,50.00,,\n"
      "300,,branches,500000,25.00,,\n"
      "340,,branches,500000,25.00,,\n"
      "2000,,cycles,2000000,100.00,,\n");
  EXPECT_EQ(file.info.repeated_events, (std::vector<std::string>{"ex_ret_ops", "branches"}));
  EXPECT_EQ(file.info.events, (std::vector<std::string>{"ex_ret_ops", "branches", "cycles"}));
  // Counted all the time and half of it: 13600 over 3 ms of running time,
  // for the 2 ms it was enabled.
  const counts::Count* ops = file.whole.sample.find("ex_ret_ops");
  ASSERT_NE(ops, nullptr);
  EXPECT_EQ(ops->time_enabled, 2000000u);
  EXPECT_EQ(ops->time_running, 2000000u);
  EXPECT_DOUBLE_EQ(*ops->scaled(), 13600.0 * 2 / 3);
  // A quarter of the time each: 640 over half of it.
  const counts::Count* branches = file.whole.sample.find("branches");
  ASSERT_NE(branches, nullptr);
  EXPECT_EQ(branches->time_running, 1000000u);
  EXPECT_EQ(branches->time_enabled, 2000000u);
  EXPECT_DOUBLE_EQ(*branches->scaled(), 1280);
  EXPECT_DOUBLE_EQ(value_of(file.whole, "cycles"), 2000);
}

TEST(PerfStat, PerCpuRowsAreScaledEachThenSummed) {
  auto file = read_whole(
      "CPU0,100,,cycles,1000,100.00,,\n"
      "CPU1,250,,cycles,1000,50.00,,\n"
      "CPU0,10,,instructions,1000,100.00,,\n"
      "CPU1,<not counted>,,instructions,0,0.00,,\n");
  EXPECT_TRUE(file.info.per_cpu);
  const counts::Count* cycles = file.whole.sample.find("cycles");
  ASSERT_NE(cycles, nullptr);
  EXPECT_DOUBLE_EQ(*cycles->scaled(), 100 + 2 * 250);
  EXPECT_EQ(cycles->time_running, 2000u);
  EXPECT_EQ(cycles->time_enabled, 3000u);
  EXPECT_DOUBLE_EQ(value_of(file.whole, "instructions"), 10);
  EXPECT_TRUE(file.whole.places.empty());  // not asked for
}

// perf's TPEBS rows (an EVENT:R event): the mean retire latency in cycles in
// the count's place, per CPU with -A; averaged over the rows, kept out of the counts.
TEST(PerfStat, RetireLatencyRowsAreAveragedApartFromTheCounts) {
  auto file = read_whole(
      "CPU0,100,,cpu_core/cycles/,1000,100.00,,\n"
      "CPU1,300,,cpu_core/cycles/,1000,100.00,,\n"
      "CPU0,20.5,,cpu_core/MEM_INST_RETIRED.STLB_HIT_LOADS/R,1000,100.00,,\n"
      "CPU1,30.5,,cpu_core/MEM_INST_RETIRED.STLB_HIT_LOADS/R,1000,100.00,,\n"
      "CPU0,7,,FRONTEND_RETIRED.L1I_MISS:R,1000,100.00,,\n"
      "CPU1,<not counted>,,FRONTEND_RETIRED.L1I_MISS:R,0,0.00,,\n");
  EXPECT_EQ(file.info.retire_latencies,
            (std::map<std::string, double, std::less<>>{{"Retire_Latency_FRONTEND_RETIRED_L1I_MISS", 7},
                                                        {"Retire_Latency_MEM_INST_RETIRED_STLB_HIT_LOADS", 25.5}}));
  EXPECT_EQ(file.info.events, std::vector<std::string>{"cpu_core/cycles/"});
  EXPECT_DOUBLE_EQ(value_of(file.whole, "cpu_core/cycles/"), 400);
}

TEST(PerfStat, PerCoreRowsWithCpuCountAreSummed) {
  auto file = read_whole(
      "S0-D0-C0,2,300,,cycles,1000,100.00,,\n"
      "S0-D0-C1,2,500,,cycles,1000,100.00,,\n"
      "S0-D0-C0,2,30,,instructions,1000,100.00,,\n"
      "S0-D0-C1,2,50,,instructions,1000,100.00,,\n");
  EXPECT_TRUE(file.info.per_cpu);
  EXPECT_DOUBLE_EQ(value_of(file.whole, "cycles"), 800);
  EXPECT_DOUBLE_EQ(value_of(file.whole, "instructions"), 80);
}

const char* kIntervals =
    "#           time             counts unit events\n"
    "     1.000100000,CPU0,100,,cycles,1000,100.00,,\n"
    "     1.000100000,CPU1,200,,cycles,1000,100.00,,\n"
    "     1.000100000,CPU0,10,,instructions,1000,100.00,,\n"
    "     1.000100000,CPU1,20,,instructions,1000,100.00,,\n"
    "     2.000200000,CPU0,300,,cycles,1000,100.00,,\n"
    "     2.000200000,CPU1,400,,cycles,1000,100.00,,\n"
    "     2.000200000,CPU0,30,,instructions,1000,100.00,,\n"
    "     2.000200000,CPU1,<not counted>,,instructions,0,0.00,,\n";

TEST(PerfStat, IntervalsAreSummedOverTheWholeFile) {
  auto file = read_whole(kIntervals);
  EXPECT_TRUE(file.info.intervals);
  EXPECT_TRUE(file.info.per_cpu);
  EXPECT_EQ(file.info.intervals_read, 2u);
  EXPECT_EQ(file.info.rows, 8u);
  EXPECT_DOUBLE_EQ(value_of(file.whole, "cycles"), 1000);
  EXPECT_DOUBLE_EQ(value_of(file.whole, "instructions"), 60);
  EXPECT_DOUBLE_EQ(file.whole.sample.duration_s, 2.0002);
  EXPECT_DOUBLE_EQ(*file.whole.time_s, 2.0002);
}

TEST(PerfStat, EachIntervalOnItsOwn) {
  auto intervals = read_intervals(kIntervals);
  ASSERT_EQ(intervals.size(), 2u);
  EXPECT_DOUBLE_EQ(*intervals[0].time_s, 1.0001);
  EXPECT_DOUBLE_EQ(intervals[0].sample.duration_s, 1.0001);
  EXPECT_DOUBLE_EQ(value_of(intervals[0], "cycles"), 300);
  EXPECT_DOUBLE_EQ(value_of(intervals[0], "instructions"), 30);
  EXPECT_DOUBLE_EQ(*intervals[1].time_s, 2.0002);
  EXPECT_NEAR(intervals[1].sample.duration_s, 1.0001, 1e-12);
  EXPECT_DOUBLE_EQ(value_of(intervals[1], "cycles"), 700);
  EXPECT_DOUBLE_EQ(value_of(intervals[1], "instructions"), 30);
}

TEST(PerfStat, IntervalsWithoutPerCpuRows) {
  auto intervals =
      read_intervals("1.0,5,,cycles,10,100.00,,\n2.0,<not counted>,,cycles,0,0.00,,\n3.0,7,,cycles,10,100.00,,\n");
  ASSERT_EQ(intervals.size(), 3u);
  EXPECT_DOUBLE_EQ(value_of(intervals[0], "cycles"), 5);
  EXPECT_EQ(intervals[1].sample.find("cycles"), nullptr);
  EXPECT_DOUBLE_EQ(value_of(intervals[2], "cycles"), 7);
}

TEST(PerfStat, DurationTimeGivesTheLengthOfARunWithoutIntervals) {
  auto file = read_whole("1500000000,ns,duration_time,1500000000,100.00,,\n10,,cycles,10,100.00,,\n");
  EXPECT_DOUBLE_EQ(file.whole.sample.duration_s, 1.5);
  EXPECT_DOUBLE_EQ(read_whole("10,,cycles,10,100.00,,\n").whole.sample.duration_s, 0);
}

TEST(PerfStat, MissingRunTimeMeansCountedTheWholeTime) {
  auto file = read_whole("10,,cycles\n");
  EXPECT_DOUBLE_EQ(*file.whole.sample.find("cycles")->scaled(), 10);
  EXPECT_EQ(file.whole.sample.find("cycles")->running_share(), 1.0);
}

TEST(PerfStatErrors, NameTheFileLineAndProblem) {
  EXPECT_NE(read_error("10,,cycles,10,100.00,,\nabc,,instructions,10,100.00,,\n")
                .find("counts.txt:2: counter value 'abc' of instructions is not a number"),
            std::string::npos);
  EXPECT_NE(read_error("10,,cycles,10,100.00,,\n10,,instructions,ten,100.00,,\n").find(":2: run time 'ten'"),
            std::string::npos);
  EXPECT_NE(read_error("CPU0,10,,cycles,10,100.00,,\nS0,10,,cycles,10,100.00,,\n")
                .find(":2: expected a CPU column like CPU0, found 'S0'"),
            std::string::npos);
  EXPECT_NE(read_error("10,,cycles,10,100.00,,\n10,,\n").find(":2: expected 5 fields separated by ','"),
            std::string::npos);
}

TEST(PerfStatErrors, TruncatedFiles) {
  // Cut in the middle of a line.
  EXPECT_NE(read_error("10,,cycles,10,100.00,,\n10,,instr").find(":2: the last line has no end of line"),
            std::string::npos);
  // Cut at a line end, in the last interval.
  EXPECT_NE(read_error("1.0,1,,a,1,100.00,,\n1.0,1,,b,1,100.00,,\n2.0,1,,a,1,100.00,,\n")
                .find(":3: the last interval (2.0 s) has 1 of the 2 counter rows of the others: the file is truncated"),
            std::string::npos);
  EXPECT_NE(read_error("1.0,1,,a,1,100.00,,\n2.0,1,,a,1,100.00,,\n2.0,1,,b,1,100.00,,\n3.0,1,,a,1,100.00,,\n")
                .find("the interval ending at 2.0 s has 2 counter rows, the first one 1"),
            std::string::npos);
  EXPECT_NE(read_error("2.0,1,,a,1,100.00,,\n1.0,1,,a,1,100.00,,\n").find(":2: timestamp 1.0 s comes after 2.0 s"),
            std::string::npos);
}

TEST(PerfStatErrors, GarbageAndEmptyFiles) {
  EXPECT_NE(
      read_error("hello world, this is not perf\n").find(":1: neither perf stat -x output nor an 'EVENT VALUE' line"),
      std::string::npos);
  EXPECT_NE(read_error(std::string("\x7f"
                                   "ELF\x02\x01\x01\0\0\0",
                                   10))
                .find(":1: neither"),
            std::string::npos);
  EXPECT_NE(read_error("# only a comment\n\n").find("holds no counts"), std::string::npos);
  EXPECT_NE(read_error("").find("holds no counts"), std::string::npos);
  try {
    read_file("/nonexistent/perf.csv", ReadOptions{}, [](const Interval&, const FileInfo&) {});
    FAIL() << "no error for a missing file";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("cannot read import file /nonexistent/perf.csv"), std::string::npos);
  }
}

}  // namespace
}  // namespace topdown::import::testing
