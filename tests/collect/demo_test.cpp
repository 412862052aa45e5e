#include <gtest/gtest.h>

#include "collect/collect.h"
#include "test_support.h"

namespace topdown::collect {
namespace {

using testing::TempDir;

// Runs the demo through a shell only to capture its stdout in a file.
struct DemoRun {
  int exit_code;
  std::string output;
};

DemoRun run_demo(const std::string& arguments) {
  TempDir dir;
  const auto out = dir.path() / "stdout";
  const WorkloadResult result =
      run_workload({"sh", "-c", "\"$0\" " + arguments + " > \"$1\" 2>&1", TOPDOWN_DEMO_BIN, out.string()}, {});
  return {result.exit_code, testing::read_text(out)};
}

TEST(Demo, EveryKernelRunsAndPrintsAChecksum) {
  for (const std::string kernel : {"pointer-chase", "branchy", "alu"}) {
    const DemoRun run = run_demo(kernel + " --iterations 1000");
    EXPECT_EQ(run.exit_code, 0) << kernel << ": " << run.output;
    EXPECT_EQ(run.output.rfind(kernel + ": 1000 iterations, checksum ", 0), 0u) << run.output;
  }
}

TEST(Demo, RunsDirectlyUnderRunWorkload) {
  const WorkloadResult result = run_workload({TOPDOWN_DEMO_BIN, "alu", "--iterations", "1000"}, {});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_FALSE(result.signal.has_value());
}

std::string checksum_of(const std::string& output) {
  const auto at = output.find("checksum ");
  return at == std::string::npos ? "none in: " + output : output.substr(at);
}

TEST(Demo, ChecksumsAreRepeatableAndDependOnTheWork) {
  for (const std::string kernel : {"pointer-chase", "branchy", "alu"}) {
    const std::string first = checksum_of(run_demo(kernel + " --iterations 5000").output);
    EXPECT_EQ(first, checksum_of(run_demo(kernel + " --iterations 5000").output)) << kernel;
    EXPECT_NE(first, checksum_of(run_demo(kernel + " --iterations 5001").output)) << kernel;
  }
}

TEST(Demo, ListsTheKernels) {
  const DemoRun run = run_demo("list");
  EXPECT_EQ(run.exit_code, 0);
  for (const char* kernel : {"pointer-chase ", "branchy ", "alu ", "faults-and-compute ", "mostly-faults "}) {
    EXPECT_NE(run.output.find(kernel), std::string::npos) << run.output;
  }
}

TEST(Demo, UnknownKernelExitsWithTwo) {
  const DemoRun run = run_demo("no-such-kernel");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.output, "topdown-demo: unknown kernel 'no-such-kernel'; 'topdown-demo list' shows the kernels\n");
}

TEST(Demo, BadIterationCountExitsWithTwo) {
  for (const char* count : {"0", "-5", "12x", "''"}) {
    const DemoRun run = run_demo(std::string("alu --iterations ") + count);
    EXPECT_EQ(run.exit_code, 2) << count;
    EXPECT_NE(run.output.find("--iterations wants a positive whole number"), std::string::npos) << run.output;
  }
  EXPECT_EQ(run_demo("").exit_code, 2);
  EXPECT_EQ(run_demo("alu --iterations").exit_code, 2);
}

}  // namespace
}  // namespace topdown::collect
