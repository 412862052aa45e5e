// The workload's slowdown under `topdown stat -I 100` against the bare
// workload, in the same run: alternates bare and counted runs of a fixed
// compute kernel (this binary with --work, which times itself so that
// topdown's start-up is not charged to it) and prints the medians of its wall
// and CPU time and their ratios. The goal is a slowdown of at most 1%. On a
// loaded machine the wall time also measures the competition for CPUs; the
// CPU time is the workload's own cost.
// Usage: interval_overhead_bench [PAIRS]   (default 9)
// Counts the model of this CPU where there is a PMU, else the software-event
// test model (tests/data/software.model).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "timed_workload.h"

using topdown::bench::median;
using topdown::bench::run_kernel;
using topdown::bench::timed_run;
using topdown::bench::Times;

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "--work") {
    run_kernel();
    return 0;
  }
  const int pairs = argc == 2 ? std::max(1, std::atoi(argv[1])) : 9;
  const std::string self = std::filesystem::canonical("/proc/self/exe").string();
  std::vector<std::string> counted = {TOPDOWN_BIN, "stat", "-I", "100"};
  const bool has_pmu = std::filesystem::exists("/sys/bus/event_source/devices/cpu/type");
  if (!has_pmu) {
    counted.push_back("--model");
    counted.push_back(std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/software.model");
  }
  counted.insert(counted.end(), {"--", self, "--work"});

  std::vector<double> bare_wall, bare_cpu, under_wall, under_cpu;
  auto bare_run = [&] {
    const Times t = timed_run({self, "--work"});
    bare_wall.push_back(t.wall);
    bare_cpu.push_back(t.cpu);
  };
  auto counted_run = [&] {
    const Times t = timed_run(counted);
    under_wall.push_back(t.wall);
    under_cpu.push_back(t.cpu);
  };
  for (int i = 0; i < pairs; ++i) {
    // Alternating order, so that drifts in machine load hit both alike.
    if (i % 2 == 0) {
      bare_run();
      counted_run();
    } else {
      counted_run();
      bare_run();
    }
  }
  const double wall_ratio = median(under_wall) / median(bare_wall);
  const double cpu_ratio = median(under_cpu) / median(bare_cpu);
  std::printf("model:                 %s\n", has_pmu ? "this CPU's (hardware counters)" : "software events (no PMU)");
  std::printf("pairs:                 %d\n", pairs);
  std::printf("                       wall (median)  CPU time (median)\n");
  std::printf("bare workload:         %10.4f s  %10.4f s\n", median(bare_wall), median(bare_cpu));
  std::printf("under topdown -I 100:  %10.4f s  %10.4f s\n", median(under_wall), median(under_cpu));
  std::printf("ratio:                 %10.4f    %10.4f     (slowdown %+.2f%% wall, %+.2f%% CPU; goal at most +1%%)\n",
              wall_ratio, cpu_ratio, (wall_ratio - 1) * 100, (cpu_ratio - 1) * 100);
  return 0;
}
