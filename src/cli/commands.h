#pragma once
// The subcommands. Each returns the process exit status.
#include <optional>
#include <string>
#include <vector>

namespace topdown::cli {

struct ReportOptions {
  int level = 1;
  bool verbose = false;
  bool csv = false;
  bool json = false;
  bool no_color = false;
  std::string output;  // -o FILE; stderr when empty
};

struct StatOptions {
  ReportOptions report;
  std::string cpu;  // --cpu NAME
  std::optional<int> counters;
  std::vector<std::string> extra_events;  // -e
  bool print_groups = false;
  bool all_info = false;
  bool include_kernel = false;
  std::vector<std::string> command;
};

int run_stat(const StatOptions& options);
int run_info();
int run_list(const std::string& cpu);
int run_describe(const std::string& node, const std::string& cpu);

}  // namespace topdown::cli
