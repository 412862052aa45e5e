#pragma once
// What the user asked for on the command line, parsed once by the CLI: the
// settings stage decides a run from these, the CLI wires the stages with it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "aggregate/aggregate.h"
#include "collect/cgroups.h"

namespace topdown::settings {

// An on|off option that, left out, is decided from the machine or the file.
enum class Toggle { Auto, On, Off };

// The toggle's value, `automatic` when it was left out.
inline bool resolve(Toggle toggle, bool automatic) { return toggle == Toggle::Auto ? automatic : toggle == Toggle::On; }

struct ReportOptions {
  int level = 1;
  bool verbose = false;
  bool csv = false;
  bool json = false;
  bool no_color = false;
  bool columns = false;  // stat --columns: time and level 1 on one line per record
  std::string output;    // -o FILE; stderr when empty
  std::string html;      // --html FILE: the records also as one HTML page; none when empty
};

struct StatOptions {
  ReportOptions report;
  std::string cpu;           // --cpu NAME
  std::string metrics_file;  // --metrics-file FILE: perf's metric JSON instead of the model's tree
  std::optional<int> counters;
  std::vector<std::string> extra_events;  // -e
  bool print_groups = false;
  bool print_perf = false;
  // --root DIR: plan for the machine whose /sys and /proc copies are
  // DIR/sys and DIR/proc (--print-groups and --print-perf only).
  std::string root;
  Toggle smt = Toggle::Auto;           // --smt on|off; Auto: this machine's
  Toggle perf_metrics = Toggle::Auto;  // --perf-metrics on|off; Auto: when the kernel offers them (on for another CPU)
  bool all_info = false;
  bool include_kernel = false;
  std::string model_file;            // --model FILE instead of the detected CPU's model
  std::string retire_latencies;      // --retire-latencies FILE: perfmon's *_retire_latency.json
  std::optional<int> interval_ms;    // -I MS: one report per interval
  bool system_wide = false;          // -a: every online CPU
  std::string cpu_list;              // -C LIST: these CPUs
  std::vector<int> pids;             // -p PID[,PID]: attach to running processes
  std::vector<std::string> cgroups;  // -G PATH[,PATH]: only these cgroups' tasks, on every CPU or -C's
  std::string cgroups_under;         // serve --cgroups-under PATH: it and the cgroups below, followed
  int cgroup_depth = 1;              // --cgroup-depth N: how many levels below PATH
  // --cgroup-counting bpf|perf: how -G's and --cgroups-under's cgroups are counted
  collect::CgroupCounting cgroup_counting = collect::CgroupCounting::Automatic;
  bool no_multiplex = false;                      // run the command once per counter group
  int repeat = 1;                                 // -r N: run the command N times, report means and spreads
  std::string user;                               // --user NAME: who the command runs as (as root)
  bool keep_root = false;                         // --keep-root: under sudo, the command runs as root too
  aggregate::View per = aggregate::View::Global;  // --per-thread, --per-core, --per-socket; Global: one report
  std::vector<std::string> command;
};

struct RecordOptions {
  // What is sampled and how it is planned, as stat takes them: -l, --model,
  // --cpu, -p, -a, -C, --kernel, --user, --print-perf and the command.
  StatOptions live;
  std::optional<uint64_t> frequency;  // -F HZ
  std::optional<uint64_t> period;     // -c PERIOD
  std::string output = "topdown.data";
  bool frame_pointers = false;   // -g: callers from the frame pointers
  std::string call_graph;        // --call-graph fp|dwarf[,SIZE]
  std::optional<int> max_stack;  // --max-stack N: frames of a callchain
};

struct ImportOptions {
  ReportOptions report;
  std::string file;
  std::string cpu;                     // --cpu NAME
  std::string model_file;              // --model FILE instead of the measured CPU's model
  std::string metrics_file;            // --metrics-file FILE
  std::string retire_latencies;        // --retire-latencies FILE: perfmon's *_retire_latency.json
  Toggle smt = Toggle::Auto;           // --smt on|off; Auto: the file's smt_enabled, else off
  Toggle perf_metrics = Toggle::Auto;  // --perf-metrics on|off; Auto: the file's perf_metrics, else whether it has them
  bool all_info = false;
  bool per_interval = false;
  aggregate::View per = aggregate::View::Global;  // --per-thread, --per-core, --per-socket; Global: one report
  std::string topology;                           // --topology FILE: `lscpu -p=CPU,CORE,SOCKET` of the measured machine
  // --root DIR: the measured machine's /sys and /proc copies (DIR/sys,
  // DIR/proc) tell its CPU, and on big.LITTLE which PMU counts which kind.
  std::string root;
};

// topdown report FILE: the per-function profile of a sampled run.
struct ProfileOptions {
  ReportOptions report;  // -v also shows the functions under --min-share
  std::string file;
  std::string cpu;                     // --cpu NAME
  std::string model_file;              // --model FILE
  Toggle smt = Toggle::Auto;           // --smt on|off; Auto: the recording's, else off
  Toggle perf_metrics = Toggle::Auto;  // --perf-metrics on|off; Auto: whether it has them
  bool all_info = false;
  double min_share_percent = 5;  // --min-share P: functions under P% of the clockticks are never flagged
  std::string sort_node;         // --sort NODE
  bool children = false;         // --children: inclusive trees from the call stacks
  std::string callers;           // --callers FUNC: the call paths into FUNC
  std::string pprof;             // --pprof FILE: the profile as gzipped profile.proto
};

}  // namespace topdown::settings
