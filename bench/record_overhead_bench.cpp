// The workload's slowdown under `topdown record` and under `perf record`,
// sampling the same software event (cpu-clock, user space) at the same
// frequency, in the same run: alternates bare, topdown-recorded and
// perf-recorded runs of a fixed compute kernel (this binary with --work,
// which times itself so that the tools' start-up and perf's post-processing
// are not charged to it) and prints the medians, both slowdowns, the whole
// command's wall time and both data files' sizes. The goal: topdown's
// slowdown no more than perf's.
// Usage: record_overhead_bench [ROUNDS [HZ]]   (default 7 rounds, 1000 Hz)
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
#include <fstream>
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
  double wall = 0;  // the kernel's own, as it printed them
  double cpu = 0;
  double command = 0;  // the whole command line, tool included
};

// Runs argv with stderr thrown away; the kernel's times from its stdout.
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
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  if (::posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ) != 0) {
    std::fprintf(stderr, "record_overhead_bench: cannot run %s\n", args[0]);
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
    std::fprintf(stderr, "record_overhead_bench: %s failed (status %d)\n", args[0], status);
    std::exit(2);
  }
  char* rest = nullptr;
  Times times;
  times.wall = std::strtod(text, &rest);
  times.cpu = std::strtod(rest, nullptr);
  times.command = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return times;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

struct Series {
  std::vector<double> wall, cpu, command;
  void add(const Times& t) {
    wall.push_back(t.wall);
    cpu.push_back(t.cpu);
    command.push_back(t.command);
  }
};

// A model whose only event is cpu-clock, so that topdown samples what perf
// samples with -e cpu-clock:u; beside it the software model's event table.
std::string write_cpu_clock_model(const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir / "events");
  std::filesystem::copy_file(std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/events/software.events",
                             dir / "events/software.events");
  const auto path = dir / "cpu-clock.model";
  std::ofstream(path) << "[model]\nname = cpu-clock\ntitle = cpu-clock only (record_overhead_bench)\n"
                         "cpus = AMD 0x17, AMD 0x19, AMD 0x1A, Intel 6\nevent_table = software\n\n"
                         "[node On_CPU]\nformula = cpu\\-clock / (1e9 * duration_time)\n";
  return path.string();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string(argv[1]) == "--work") {
    run_kernel();
    return 0;
  }
  const int rounds = argc >= 2 ? std::max(1, std::atoi(argv[1])) : 7;
  const std::string hz = argc >= 3 ? argv[2] : "1000";
  const std::string self = std::filesystem::canonical("/proc/self/exe").string();
  const auto dir = std::filesystem::temp_directory_path() / ("record_overhead_bench." + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string topdown_file = (dir / "topdown.data").string();
  const std::string perf_file = (dir / "perf.data").string();
  const std::vector<std::string> bare = {self, "--work"};
  const std::vector<std::string> topdown = {
      TOPDOWN_BIN, "record", "--model", write_cpu_clock_model(dir), "-F", hz, "-o", topdown_file, "--", self, "--work"};
  const std::vector<std::string> perf = {"perf", "record", "-q",      "-e", "cpu-clock:u", "-F",
                                         hz,     "-o",     perf_file, "--", self,          "--work"};

  Series bare_runs, topdown_runs, perf_runs;
  for (int i = 0; i < rounds; ++i) {
    // Rotating order, so that drifts in machine load hit all three alike.
    for (int slot = 0; slot < 3; ++slot) {
      switch ((i + slot) % 3) {
        case 0:
          bare_runs.add(timed_run(bare));
          break;
        case 1:
          topdown_runs.add(timed_run(topdown));
          break;
        default:
          perf_runs.add(timed_run(perf));
          break;
      }
    }
  }
  const auto slowdown = [&](const std::vector<double>& under, const std::vector<double>& base) {
    return (median(under) / median(base) - 1) * 100;
  };
  std::printf("event:                  cpu-clock (user space), %s Hz, %d rounds\n", hz.c_str(), rounds);
  std::printf("                        workload wall   workload CPU   whole command   data file\n");
  std::printf("bare workload:          %10.4f s    %10.4f s    %10.4f s\n", median(bare_runs.wall),
              median(bare_runs.cpu), median(bare_runs.command));
  std::printf("under topdown record:   %10.4f s    %10.4f s    %10.4f s    %8ju bytes\n", median(topdown_runs.wall),
              median(topdown_runs.cpu), median(topdown_runs.command),
              static_cast<uintmax_t>(std::filesystem::file_size(topdown_file)));
  std::printf("under perf record:      %10.4f s    %10.4f s    %10.4f s    %8ju bytes\n", median(perf_runs.wall),
              median(perf_runs.cpu), median(perf_runs.command),
              static_cast<uintmax_t>(std::filesystem::file_size(perf_file)));
  std::printf("slowdown, topdown:      %+9.2f%%      %+9.2f%%      %+9.2f%%\n",
              slowdown(topdown_runs.wall, bare_runs.wall), slowdown(topdown_runs.cpu, bare_runs.cpu),
              slowdown(topdown_runs.command, bare_runs.command));
  std::printf("slowdown, perf:         %+9.2f%%      %+9.2f%%      %+9.2f%%\n",
              slowdown(perf_runs.wall, bare_runs.wall), slowdown(perf_runs.cpu, bare_runs.cpu),
              slowdown(perf_runs.command, bare_runs.command));
  std::filesystem::remove_all(dir);
  return 0;
}
