#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <thread>

#include "collect/collect.h"
#include "common/error.h"
#include "test_support.h"

namespace topdown::collect {
namespace {

using testing::TempDir;

std::string error_of(const std::vector<std::string>& argv, const std::vector<CounterGroup>& groups = {}) {
  try {
    run_workload(argv, groups);
  } catch (const Error& error) {
    return error.what();
  }
  return "no error";
}

// The test process must have no child left: every workload was reaped.
void expect_no_children() {
  errno = 0;
  EXPECT_EQ(::waitpid(-1, nullptr, WNOHANG), -1);
  EXPECT_EQ(errno, ECHILD);
}

TEST(RunWorkload, PropagatesTheExitStatus) {
  const WorkloadResult result = run_workload({"sh", "-c", "exit 3"}, {});
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_FALSE(result.signal.has_value());
  EXPECT_TRUE(result.sample.events.empty());
  expect_no_children();
}

TEST(RunWorkload, SuccessIsZero) {
  const WorkloadResult result = run_workload({"true"}, {});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_FALSE(result.signal.has_value());
}

TEST(RunWorkload, KilledWorkloadReportsTheSignal) {
  const WorkloadResult result = run_workload({"sh", "-c", "kill -KILL $$"}, {});
  EXPECT_EQ(result.exit_code, 128 + SIGKILL);
  ASSERT_TRUE(result.signal.has_value());
  EXPECT_EQ(*result.signal, SIGKILL);
  expect_no_children();
}

TEST(RunWorkload, MeasuresTheElapsedTime) {
  const WorkloadResult result = run_workload({"sleep", "0.2"}, {});
  EXPECT_GE(result.elapsed_s, 0.19);
  EXPECT_LT(result.elapsed_s, 5.0);
  EXPECT_DOUBLE_EQ(result.sample.duration_s, result.elapsed_s);
}

TEST(RunWorkload, PassesArgumentsWithoutAShell) {
  TempDir dir;
  const auto file = dir.path() / "out";
  const WorkloadResult result =
      run_workload({"sh", "-c", "printf '%s|' \"$@\" > \"$0\"", file.string(), "a b", "$HOME", "*"}, {});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(testing::read_text(file), "a b|$HOME|*|");
}

TEST(RunWorkload, MissingCommandIsAnError) {
  EXPECT_EQ(error_of({"topdown-no-such-command", "--flag"}),
            "cannot run 'topdown-no-such-command': No such file or directory; check the command name and PATH");
  expect_no_children();
}

TEST(RunWorkload, NonExecutableFileIsAnError) {
  TempDir dir;
  const auto script = dir.path() / "not-executable";
  std::ofstream(script) << "#!/bin/sh\n";
  EXPECT_EQ(error_of({script.string()}),
            "cannot run '" + script.string() + "': Permission denied; check the command name and PATH");
  expect_no_children();
}

TEST(RunWorkload, StartFailuresCarryTheShellsExitStatus) {
  try {
    run_workload({"topdown-no-such-command"}, {});
    FAIL() << "expected CommandNotStarted";
  } catch (const CommandNotStarted& error) {
    EXPECT_EQ(error.exit_status(), 127);
  }
  try {
    run_workload({"/"}, {});  // a directory: found, not executable
    FAIL() << "expected CommandNotStarted";
  } catch (const CommandNotStarted& error) {
    EXPECT_EQ(error.exit_status(), 126);
  }
  expect_no_children();
}

TEST(RunWorkload, EmptyCommandIsAnError) {
  EXPECT_EQ(error_of({}), "no workload to run: give the command after '--'");
  EXPECT_EQ(error_of({""}), "no workload to run: give the command after '--'");
}

TEST(RunWorkload, ForwardsSigtermToTheWorkload) {
  TempDir dir;
  const auto started = dir.path() / "started";
  struct sigaction before {};
  ::sigaction(SIGTERM, nullptr, &before);

  std::thread terminator([&] {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!std::filesystem::exists(started) && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ::kill(::getpid(), SIGTERM);
  });
  const WorkloadResult result = run_workload({"sh", "-c", "touch \"$0\"; exec sleep 20", started.string()}, {});
  terminator.join();

  EXPECT_EQ(result.exit_code, 128 + SIGTERM);
  EXPECT_EQ(result.signal, SIGTERM);
  EXPECT_LT(result.elapsed_s, 10.0);
  struct sigaction after {};
  ::sigaction(SIGTERM, nullptr, &after);
  EXPECT_EQ(after.sa_handler, before.sa_handler) << "the forwarding handler must be removed afterwards";
  expect_no_children();
}

// SIGHUP (a closed terminal), SIGPIPE (a closed pipe), SIGQUIT and SIGUSR1
// killed topdown and left the workload running without it (issue 31): each
// now stops counting as SIGTERM does, passed on to the workload, whose end
// is waited for, and the handler is removed afterwards.
class StopSignal : public ::testing::TestWithParam<int> {};

TEST_P(StopSignal, IsPassedOnToTheWorkloadAndEndsCounting) {
  const int signal = GetParam();
  rlimit no_core{0, 0};  // SIGQUIT's default action dumps core: not into the test's directory
  ASSERT_EQ(::setrlimit(RLIMIT_CORE, &no_core), 0);
  TempDir dir;
  const auto started = dir.path() / "started";
  struct sigaction before {};
  ::sigaction(signal, nullptr, &before);

  std::thread sender([&] {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!std::filesystem::exists(started) && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ::kill(::getpid(), signal);
  });
  const WorkloadResult result = run_workload({"sh", "-c", "touch \"$0\"; exec sleep 20", started.string()}, {});
  sender.join();

  EXPECT_EQ(result.stopped_by, signal);
  EXPECT_EQ(result.signal, signal) << "the workload got the signal and ended by it";
  EXPECT_EQ(result.exit_code, 128 + signal);
  struct sigaction after {};
  ::sigaction(signal, nullptr, &after);
  EXPECT_EQ(after.sa_handler, before.sa_handler) << "the forwarding handler must be removed afterwards";
  expect_no_children();
}

INSTANTIATE_TEST_SUITE_P(RunWorkload, StopSignal, ::testing::Values(SIGHUP, SIGPIPE, SIGQUIT, SIGUSR1),
                         [](const ::testing::TestParamInfo<int>& test) {
                           return std::string(sigabbrev_np(test.param));
                         });

// Without a PMU, a hardware event fails to open: the error says why, and the
// workload never runs.
TEST(RunWorkload, NoPmuErrorAndTheWorkloadNeverRuns) {
  if (pmu_available()) GTEST_SKIP() << "this machine has a hardware PMU; the no-PMU error cannot happen here";
  TempDir dir;
  const auto ran = dir.path() / "ran";
  events::Encoding instructions;
  instructions.name = "ex_ret_instr";
  instructions.config = 0xc0;
  const std::string message = error_of({"sh", "-c", "touch \"$0\"", ran.string()}, {CounterGroup{{instructions}}});
  EXPECT_NE(message.find("cannot count 'ex_ret_instr'"), std::string::npos) << message;
  EXPECT_NE(message.find("no hardware PMU"), std::string::npos) << message;
  EXPECT_FALSE(std::filesystem::exists(ran));
  expect_no_children();
}

// Software events exist without a PMU, so they exercise the whole counting
// path (open on the child, enable on exec, inherit, read) on any machine.
const events::Encoding kTaskClock = testing::software_event("task-clock", PERF_COUNT_SW_TASK_CLOCK);
const events::Encoding kPageFaults = testing::software_event("page-faults", PERF_COUNT_SW_PAGE_FAULTS);

// About 0.1 s of user-mode work that the compiler cannot skip.
const std::vector<std::string> kBusyShell = {"sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done"};

// CPU time of this process's reaped children, in nanoseconds.
double children_cpu_ns() {
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);
  const auto ns = [](const timeval& time) {
    return static_cast<double>(time.tv_sec) * 1e9 + static_cast<double>(time.tv_usec) * 1e3;
  };
  return ns(usage.ru_utime) + ns(usage.ru_stime);
}

TEST(RunWorkloadCounting, CountsAGroupOfSoftwareEvents) {
  if (!testing::perf_events_permitted()) GTEST_SKIP() << testing::kNotPermitted;
  const double cpu_before = children_cpu_ns();
  const WorkloadResult result = run_workload(kBusyShell, {CounterGroup{{kTaskClock, kPageFaults}}});
  const double child_cpu_ns = children_cpu_ns() - cpu_before;
  EXPECT_EQ(result.exit_code, 0);
  ASSERT_EQ(result.sample.events.size(), 2u);
  const counts::Count* task_clock = result.sample.find("task-clock");
  const counts::Count* page_faults = result.sample.find("page-faults");
  ASSERT_NE(task_clock, nullptr);
  ASSERT_NE(page_faults, nullptr);
  // task-clock counts the child's nanoseconds on the CPU: what the kernel
  // accounts to it (however little of a busy machine it got), and never more
  // than the elapsed time.
  EXPECT_NEAR(task_clock->value, child_cpu_ns, 0.1 * child_cpu_ns + 5e6);
  EXPECT_GT(task_clock->value, 10e6);
  EXPECT_LE(task_clock->value, 1.05 * result.elapsed_s * 1e9);
  EXPECT_GT(task_clock->time_enabled, 0u);
  EXPECT_EQ(task_clock->time_running, task_clock->time_enabled);
  EXPECT_GT(page_faults->value, 10.0);  // exec alone maps and touches pages
  expect_no_children();
}

TEST(RunWorkloadCounting, ChildProcessesAreCountedOnlyWhenInherited) {
  if (!testing::perf_events_permitted()) GTEST_SKIP() << testing::kNotPermitted;
  // The busy loop runs in a child shell; the outer shell only waits.
  const std::vector<std::string> parent_waits = {"sh", "-c", "sh -c \"$0\"", kBusyShell[2]};
  const double with_children =
      run_workload(parent_waits, {CounterGroup{{kTaskClock}}}).sample.find("task-clock")->value;
  Options own_process_only;
  own_process_only.count_children = false;
  const double without_children =
      run_workload(parent_waits, {CounterGroup{{kTaskClock}}}, own_process_only).sample.find("task-clock")->value;
  EXPECT_GT(with_children, 5 * without_children);
}

TEST(RunWorkloadCounting, EachGroupIsOpened) {
  if (!testing::perf_events_permitted()) GTEST_SKIP() << testing::kNotPermitted;
  const WorkloadResult result = run_workload({"true"}, {CounterGroup{{kTaskClock}}, CounterGroup{{kPageFaults}}, {}});
  EXPECT_EQ(result.sample.events.size(), 2u);
  EXPECT_GT(result.sample.find("page-faults")->value, 0.0);
}

}  // namespace
}  // namespace topdown::collect
