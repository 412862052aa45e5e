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
  bool print_perf = false;
  std::string smt;  // --smt on|off; empty: this machine's
  bool all_info = false;
  bool include_kernel = false;
  std::vector<std::string> command;
};

struct ImportOptions {
  ReportOptions report;
  std::string file;
  std::string cpu;  // --cpu NAME
  std::string smt;  // --smt on|off; empty: the file's smt_enabled, else off
  bool all_info = false;
  bool per_interval = false;
};

int run_stat(const StatOptions& options);
int run_import(const ImportOptions& options);
int run_info();
int run_list(const std::string& cpu);
int run_describe(const std::string& node, const std::string& cpu);

}  // namespace topdown::cli
