// The workload's slowdown under `topdown record` and under `perf record`,
// sampling the same software event (cpu-clock, user space) at the same
// frequency, in the same run: alternates bare, topdown-recorded and
// perf-recorded runs of a fixed compute kernel (this binary with --work,
// which times itself so that the tools' start-up and perf's post-processing
// are not charged to it) and prints the medians, both slowdowns, the whole
// command's wall time and both data files' sizes. The goal: topdown's
// slowdown no more than perf's.
// Usage: record_overhead_bench [ROUNDS [HZ]]   (default 7 rounds, 1000 Hz)
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "timed_workload.h"

namespace {

using topdown::bench::median;
using topdown::bench::run_kernel;
using topdown::bench::timed_run;
using topdown::bench::Times;

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
