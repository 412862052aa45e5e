#pragma once
// Runs a command line through /bin/sh for end-to-end tests and captures its
// exit status, stdout and stderr.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "collect/collect.h"

namespace topdown::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

inline CommandResult run_command(const std::string& command) {
  // ctest runs tests in parallel processes that share TempDir().
  const std::string stem = ::testing::TempDir() + "/cmd-" + std::to_string(::getpid());
  std::string out = stem + ".out";
  std::string err = stem + ".err";
  int status = std::system((command + " >" + out + " 2>" + err + " </dev/null").c_str());
  CommandResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = slurp(out);
  result.err = slurp(err);
  return result;
}

// The lines of `text` that start with `prefix`.
inline std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with(prefix)) lines.push_back(line);
  }
  return lines;
}

inline bool has_pmu() { return collect::pmu_available(); }

#define SKIP_WITHOUT_PMU()                                                                                      \
  if (!::topdown::testing::has_pmu())                                                                           \
  GTEST_SKIP() << "no hardware PMU on this machine (/sys/bus/event_source/devices/cpu is absent: a VM without " \
                  "a virtual PMU); this test needs real counters"

}  // namespace topdown::testing
