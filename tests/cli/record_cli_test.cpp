// topdown record end to end with the software-event model (no PMU needed):
// the data file it writes read back with recording::read_data_file.
#include <gtest/gtest.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "recording/data_file.h"
#include "run_command.h"
#include "symbols/symbolizer.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;
const std::string kDemo = TOPDOWN_DEMO_BIN;
const std::string kRecord =
    kTopdown + " record --model " + std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/software.model";

class RecordCli : public ::testing::Test {
 protected:
  void TearDown() override { ::unlink(file_.c_str()); }
  std::string file_ = ::testing::TempDir() + "record_cli." + std::to_string(::getpid()) + ".data";
};

// The sum of event `position`'s deltas over every sample.
uint64_t total(const recording::Recording& recording, std::size_t position) {
  uint64_t sum = 0;
  for (const recording::Sample& sample : recording.samples) sum += recording.values[sample.first_value + position];
  return sum;
}

TEST_F(RecordCli, DemoRecordingReadsBackWithItsFaultsMappingAndExec) {
  const auto r = run_command(kRecord + " -o " + file_ + " -- " + kDemo + " faults-and-compute");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("topdown: wrote " + file_ + " ("), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" records lost\n"), std::string::npos) << r.err;

  const recording::Recording recording = recording::read_data_file(file_);
  EXPECT_FALSE(recording.truncated);
  EXPECT_TRUE(recording.warnings.empty());
  ASSERT_EQ(recording.header.groups.size(), 1u);
  const recording::SampledGroup& group = recording.header.groups[0];
  EXPECT_EQ(group.events, (std::vector<std::string>{"task-clock", "page-faults", "context-switches"}));
  EXPECT_EQ(group.frequency, 1000u);
  EXPECT_GT(group.time_running, 0u);
  EXPECT_LE(group.time_running, group.time_enabled);
  EXPECT_GT(recording.samples.size(), 100u);
  EXPECT_EQ(recording.lost_samples, 0u);
  // 10 slices and a calibration of 40 rounds of 256 pages, each a fault,
  // and the few of starting a process; only the faults after the last
  // sample are missing.
  const uint64_t faults = total(recording, 1);
  EXPECT_GE(faults, 11u * 40 * 256 * 95 / 100);
  EXPECT_LE(faults, 11u * 40 * 256 + 8000);  // a sanitized binary's start-up faults more
  // task-clock deltas: the run's CPU time, about 1 ms per sample at 1 kHz.
  const double per_sample_ms =
      static_cast<double>(total(recording, 0)) / 1e6 / static_cast<double>(recording.samples.size());
  EXPECT_GT(per_sample_ms, 0.5);
  EXPECT_LT(per_sample_ms, 2.0);

  const auto executable = std::find_if(recording.mappings.begin(), recording.mappings.end(),
                                       [](const auto& m) { return m.path.ends_with("/topdown-demo") && m.executable; });
  ASSERT_NE(executable, recording.mappings.end());
  // From Linux 5.12 the kernel writes the binary's build id into the mapping
  // record (before, device and inode), and report checks it against the file.
  utsname system{};
  ::uname(&system);
  int major = 0;
  int minor = 0;
  std::sscanf(system.release, "%d.%d", &major, &minor);
  if (major > 5 || (major == 5 && minor >= 12)) {
    EXPECT_EQ(executable->build_id, symbols::build_id_of(kDemo));
    EXPECT_EQ(executable->build_id.size(), 40u) << executable->build_id;  // GNU's SHA-1 build id, in hex
  }
  const auto exec = std::find_if(recording.tasks.begin(), recording.tasks.end(), [](const auto& task) {
    return task.kind == recording::Task::Kind::Exec && task.comm == "topdown-demo";
  });
  ASSERT_NE(exec, recording.tasks.end());
  // The samples are the demo's process's, after its exec (but for a helper
  // process a sanitizer's runtime may clone at exit).
  const auto of_demo = std::count_if(recording.samples.begin(), recording.samples.end(),
                                     [&](const recording::Sample& sample) { return sample.pid == exec->pid; });
  EXPECT_GE(static_cast<double>(of_demo), 0.98 * static_cast<double>(recording.samples.size()));
}

TEST_F(RecordCli, ChildrenAreSampledAndTheExitStatusIsTheCommands) {
  const auto r =
      run_command(kRecord + " -F 500 -o " + file_ + " -- sh -c '" + kDemo + " alu --iterations 100000000; exit 3'");
  ASSERT_EQ(r.exit_code, 3) << r.err;
  const recording::Recording recording = recording::read_data_file(file_);
  EXPECT_EQ(recording.header.groups[0].frequency, 500u);
  const bool forked = std::any_of(recording.tasks.begin(), recording.tasks.end(),
                                  [](const auto& task) { return task.kind == recording::Task::Kind::Fork; });
  EXPECT_TRUE(forked);
  const auto demo_samples = std::count_if(recording.samples.begin(), recording.samples.end(), [&](const auto& s) {
    return std::any_of(recording.tasks.begin(), recording.tasks.end(), [&](const auto& task) {
      return task.kind == recording::Task::Kind::Exec && task.comm == "topdown-demo" && task.pid == s.pid;
    });
  });
  EXPECT_GT(demo_samples, 20);
}

TEST_F(RecordCli, SigintStopsAndLeavesAWholeFile) {
  const auto r = run_command(kRecord + " -o " + file_ + " -- timeout 5 sh -c 'while :; do :; done' & pid=$!; " +
                             "sleep 1; kill -INT $pid; wait $pid");
  EXPECT_EQ(r.exit_code, 130) << r.err;
  const recording::Recording recording = recording::read_data_file(file_);
  EXPECT_FALSE(recording.truncated);
  EXPECT_TRUE(recording.warnings.empty()) << recording.warnings[0];
  // A second of spinning is hundreds of samples on a quiet machine; at a load
  // of 12 on two CPUs the spinner got a sixth of one (90 samples a second).
  EXPECT_GT(recording.samples.size(), 20u);
  EXPECT_GT(recording.header.groups[0].time_enabled, 0u);
}

TEST_F(RecordCli, SigkillLeavesAReadablePrefix) {
  // SIGKILL once the file holds a few hundred samples, however slowly
  // topdown starts (at most 20 s of waiting); the spinner, orphaned, is
  // ended after.
  const std::string spinner = file_ + ".spinner";
  const auto r = run_command(
      kRecord + " -o " + file_ + " -- sh -c 'echo $$ >" + spinner +
      "; exec timeout 60 sh -c \"while :; do :; done\"' & pid=$!; i=0; " + "while [ $i -lt 400 ] && [ $(stat -c %s " +
      file_ + " 2>/dev/null || echo 0) -lt 40000 ]; do sleep 0.05; i=$((i+1)); done; " +
      "kill -KILL $pid; wait $pid; status=$?; kill $(cat " + spinner + "); rm -f " + spinner + "; exit $status");
  EXPECT_EQ(r.exit_code, 137) << r.err;
  const recording::Recording recording = recording::read_data_file(file_);
  EXPECT_GT(recording.samples.size(), 20u);  // drained every 250 ms, however little CPU the spinner got
  ASSERT_FALSE(recording.warnings.empty());
  EXPECT_NE(recording.warnings.back().find("no end record"), std::string::npos);
}

TEST_F(RecordCli, RunningProcessIsSampledWithItsMappingsFromProc) {
  const auto r = run_command("sh -c 'while :; do :; done' & pid=$!; sleep 0.3; (sleep 1; kill $pid) & " + kRecord +
                             " -o " + file_ + " -p $pid");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const recording::Recording recording = recording::read_data_file(file_);
  // Hundreds on a quiet machine; 76 at a load of 12 on two CPUs.
  EXPECT_GT(recording.samples.size(), 20u);
  ASSERT_FALSE(recording.tasks.empty());
  EXPECT_EQ(recording.tasks[0].comm, "sh");
  EXPECT_EQ(recording.tasks[0].time, 0u);  // written from /proc before sampling
  const bool shell_mapped = std::any_of(recording.mappings.begin(), recording.mappings.end(), [&](const auto& m) {
    return m.pid == recording.tasks[0].pid && m.time == 0 && m.executable;
  });
  EXPECT_TRUE(shell_mapped);
  EXPECT_EQ(recording.header.command.rfind("-p ", 0), 0u);
}

TEST_F(RecordCli, AllCpusAreSampled) {
  const auto r = run_command(kRecord + " -a -o " + file_ + " -- " + kDemo + " alu --iterations 100000000");
  if (r.exit_code == 125 && r.err.find("not permitted") != std::string::npos) GTEST_SKIP() << r.err;
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const recording::Recording recording = recording::read_data_file(file_);
  EXPECT_GT(recording.samples.size(), 20u);
  EXPECT_EQ(recording.header.command, "-a -- " + kDemo + " alu --iterations 100000000");
  EXPECT_GT(recording.mappings.size(), 1u);  // every running process's
}

TEST(RecordPrintPerf, OneLeaderSampledGroupPerPlanGroup) {
  const auto r = run_command(kRecord + " -c 100000 --print-perf -- ./app 'two words'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("\nperf record -c 100000 -e '{software/config=0x1,name=task-clock/,software/config=0x2,"
                       "name=page-faults/,software/config=0x3,name=context-switches/}:S' -o perf.data -- ./app "
                       "'two words'\n"),
            std::string::npos)
      << r.err;
}

TEST(RecordCliOptions, RateAndTargetMistakesAreOneLine) {
  auto r = run_command(kRecord + " -F 100 -c 1000 -- true");
  EXPECT_EQ(r.exit_code, 125);
  r = run_command(kRecord);
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_EQ(r.err,
            "topdown: no command to record; usage: topdown record [options] -- CMD [ARGS...] (or -p PID, or -a)\n");
}

}  // namespace
}  // namespace topdown::testing
