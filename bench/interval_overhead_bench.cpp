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
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

extern char** environ;

namespace {

double cpu_seconds() {
  timespec now{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

// A dependent xorshift chain: about a second of pure CPU work. Prints its
// wall and CPU time.
void run_kernel() {
  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = cpu_seconds();
  uint64_t x = 88172645463325252ull;
  for (uint64_t i = 0; i < 400'000'000ull; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%.6f %.6f %llu\n", wall, cpu_seconds() - cpu_start, static_cast<unsigned long long>(x & 1));
}

struct Times {
  double wall = 0;
  double cpu = 0;
};

// Runs argv with its stderr (topdown's reports) thrown away; returns the
// kernel's own times as it printed them on stdout.
Times timed_run(const std::vector<std::string>& argv) {
  int out[2];
  if (::pipe(out) != 0) std::exit(2);
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  ::posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  ::posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  ::posix_spawn_file_actions_addclose(&actions, out[0]);
  std::vector<char*> args;
  for (const auto& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  if (::posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ) != 0) {
    std::fprintf(stderr, "interval_overhead_bench: cannot run %s\n", args[0]);
    std::exit(2);
  }
  ::posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]);
  char text[64] = {};
  const ssize_t got = ::read(out[0], text, sizeof text - 1);
  ::close(out[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (got <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "interval_overhead_bench: %s failed (status %d)\n", args[0], status);
    std::exit(2);
  }
  char* rest = nullptr;
  Times times;
  times.wall = std::strtod(text, &rest);
  times.cpu = std::strtod(rest, nullptr);
  return times;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

}  // namespace

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
