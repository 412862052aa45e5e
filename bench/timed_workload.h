#pragma once
// What the overhead benchmarks share: a fixed compute kernel that times
// itself (run by the benchmark binary with --work, so that a tool's start-up
// and post-processing are not charged to it) and a runner that starts a
// command line around it and reads the kernel's own times back.
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
#include <string>
#include <vector>

extern char** environ;

namespace topdown::bench {

inline double cpu_seconds() {
  timespec now{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

// A dependent xorshift chain: about a second of pure CPU work. Prints its
// wall and CPU time.
inline void run_kernel() {
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
inline Times timed_run(const std::vector<std::string>& argv) {
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
    std::fprintf(stderr, "cannot run %s\n", args[0]);
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
    std::fprintf(stderr, "%s failed (status %d)\n", args[0], status);
    std::exit(2);
  }
  char* rest = nullptr;
  Times times;
  times.wall = std::strtod(text, &rest);
  times.cpu = std::strtod(rest, nullptr);
  times.command = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return times;
}

inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

}  // namespace topdown::bench
