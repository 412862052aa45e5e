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
  bool columns = false;  // stat --columns: time and level 1 on one line per record
  std::string output;  // -o FILE; stderr when empty
};

struct StatOptions {
  ReportOptions report;
  std::string cpu;           // --cpu NAME
  std::string metrics_file;  // --metrics-file FILE: perf's metric JSON instead of the model's tree
  std::optional<int> counters;
  std::vector<std::string> extra_events;  // -e
  bool print_groups = false;
  bool print_perf = false;
  std::string smt;  // --smt on|off; empty: this machine's
  std::string perf_metrics;  // --perf-metrics on|off; empty: when the kernel offers them (on for another CPU)
  bool all_info = false;
  bool include_kernel = false;
  std::string model_file;            // --model FILE instead of the detected CPU's model
  std::optional<int> interval_ms;    // -I MS: one report per interval
  bool system_wide = false;          // -a: every online CPU
  std::string cpu_list;              // -C LIST: these CPUs
  std::vector<int> pids;             // -p PID[,PID]: attach to running processes
  bool no_multiplex = false;         // run the command once per counter group
  std::string user;                  // --user NAME: who the command runs as (as root)
  bool keep_root = false;            // --keep-root: under sudo, the command runs as root too
  std::string per;  // --per-thread, --per-core, --per-socket: "thread", "core", "socket"; empty: one report
  std::vector<std::string> command;
};

struct ImportOptions {
  ReportOptions report;
  std::string file;
  std::string cpu;           // --cpu NAME
  std::string metrics_file;  // --metrics-file FILE
  std::string smt;  // --smt on|off; empty: the file's smt_enabled, else off
  std::string perf_metrics;  // --perf-metrics on|off; empty: the file's perf_metrics, else whether it has them
  bool all_info = false;
  bool per_interval = false;
  std::string per;       // --per-thread, --per-core, --per-socket: "thread", "core", "socket"; empty: one report
  std::string topology;  // --topology FILE: `lscpu -p=CPU,CORE,SOCKET` of the measured machine
};

int run_stat(const StatOptions& options);
int run_import(const ImportOptions& options);
int run_info();
int run_list(const std::string& cpu, const std::string& metrics_file);
int run_describe(const std::string& name, const std::string& cpu, const std::string& metrics_file);

}  // namespace topdown::cli
