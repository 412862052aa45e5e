// topdown: Top-down Microarchitecture Analysis from the command line.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <string_view>

#include "cli/argument_check.h"
#include "cli/cgroup_counting_option.h"
#include "cli/commands.h"
#include "cli/event_list.h"
#include "cli/output.h"
#include "cli/record_command.h"
#include "cli/serve_command.h"
#include "cli/signals.h"
#include "cli/standard_streams.h"
#include "collect/collect.h"
#include "common/error.h"
#include "common/printable.h"

namespace {

// Prints one line of topdown's own to stderr. Messages quote what the user
// gave (a command name, a file's keys): no byte of it may drive the terminal
// or split the line.
void say(std::string_view line) { std::fprintf(stderr, "%s\n", topdown::printable(line).c_str()); }

void add_report_options(CLI::App& command, topdown::cli::ReportOptions& report) {
  command.add_option("-l,--level", report.level, "Tree depth to compute (1-6)")->check(CLI::Range(1, 6));
  command.add_flag("-v,--verbose", report.verbose, "Also show nodes under their threshold");
  auto* csv = command.add_flag("--csv", report.csv, "CSV output (see README)");
  command.add_flag("--json", report.json, "JSON output (see README)")->excludes(csv);
  command.add_flag("--no-color", report.no_color, "Never use colour");
  command.add_option("-o,--output", report.output, "Write the report to FILE (whole or not at all)");
  command.add_option("--html", report.html, "Also write the report as one self-contained HTML page to FILE");
}

void add_metrics_file_option(CLI::App& command, std::string& file) {
  command.add_option("--metrics-file", file,
                     "Tree and Info metrics from perf's metric JSON (<cpu>-metrics.json) on the --cpu model's CPU");
}

void add_retire_latencies_option(CLI::App& command, std::string& file) {
  command.add_option("--retire-latencies", file,
                     "Mean retire latencies of events, as Intel's perfmon publishes them (*_retire_latency.json): "
                     "for the nodes that weigh events by them");
}

// --per-thread, --per-core, --per-socket: sets `per` to their view.
void add_per_unit_options(CLI::App& command, topdown::aggregate::View& per) {
  using topdown::aggregate::View;
  auto* per_thread = command.add_flag_callback(
      "--per-thread", [&per] { per = View::Thread; }, "One report per CPU (perf stat -A rows) or thread");
  auto* per_core = command.add_flag_callback(
      "--per-core", [&per] { per = View::Core; }, "One report per core (per-CPU or per-core rows)");
  auto* per_socket = command.add_flag_callback(
      "--per-socket", [&per] { per = View::Socket; }, "One report per socket");
  per_thread->excludes(per_core)->excludes(per_socket);
  per_core->excludes(per_socket);
}

// An on|off option (--smt, --perf-metrics): sets `toggle`; left out, it
// stays Auto.
void add_toggle_option(CLI::App& command, const std::string& name, topdown::settings::Toggle& toggle,
                       const std::string& description) {
  using topdown::settings::Toggle;
  command
      .add_option_function<std::string>(
          name, [&toggle](const std::string& value) { toggle = value == "on" ? Toggle::On : Toggle::Off; }, description)
      ->check(CLI::IsMember({"on", "off"}));
}

// Where and how `stat` counts: intervals, processes, CPUs, reruns.
void add_live_options(CLI::App& command, topdown::cli::StatOptions& stat) {
  command.add_option("--model", stat.model_file, "Use the model in FILE (docs/model-format.md)")
      ->check(CLI::ExistingFile)
      ->excludes("--cpu");
  auto* interval =
      command.add_option("-I,--interval", stat.interval_ms, "Report every MS milliseconds, then the whole run")
          ->check(CLI::Range(10, 3'600'000));
  command.add_flag("--columns", stat.report.columns, "One line per report: time and level 1 (for terminals)")
      ->excludes("--csv")
      ->excludes("--json");
  command.add_flag("-a,--all-cpus", stat.system_wide, "Count everything on every online CPU");
  command.add_option("-C,--cpus", stat.cpu_list, "Count everything on these CPUs (0-3,6)");
  command.add_option("-p,--pid", stat.pids, "Count these running processes (PID[,PID])")
      ->delimiter(',')
      ->check(topdown::cli::process_id_check());
  command
      .add_option("-G,--cgroup", stat.cgroups,
                  "Count only the tasks of these cgroups (PATH[,PATH], under the cgroup mount as in "
                  "/proc/PID/cgroup), each its own report, on every CPU or those of -C")
      ->delimiter(',')
      ->excludes("--pid");
  topdown::cli::add_cgroup_counting_option(command, stat.cgroup_counting);
  auto* user =
      command.add_option("--user", stat.user,
                         "Run the command as this user (needs root; under sudo the default is the user who ran sudo)");
  command.add_flag("--keep-root", stat.keep_root, "Under sudo, run the command as root too")->excludes(user);
  command.add_flag("--no-multiplex", stat.no_multiplex, "Run the command once per counter group and combine the runs")
      ->excludes(interval);
  command.add_option("-r,--repeat", stat.repeat, "Run the command N times: means, spreads and 95% intervals")
      ->check(CLI::Range(1, 10000));
}

int run_topdown(int argc, char** argv) {
  using namespace topdown::cli;
  CLI::App app{"topdown: where did the CPU's pipeline slots go? (Top-down Microarchitecture Analysis)"};
  app.set_version_flag("--version", std::string(TOPDOWN_VERSION));
  app.require_subcommand(1);

  StatOptions stat;
  auto* stat_command = app.add_subcommand("stat", "Run a command and show its top-down breakdown");
  add_report_options(*stat_command, stat.report);
  stat_command->add_option("--cpu", stat.cpu, "Use the model for this CPU (see `topdown list --cpu`)");
  add_metrics_file_option(*stat_command, stat.metrics_file);
  add_retire_latencies_option(*stat_command, stat.retire_latencies);
  stat_command->add_option("--counters", stat.counters, "Usable general counters (overrides the health check)")
      ->check(CLI::Range(1, 64));
  std::vector<std::string> event_lists;
  stat_command->add_option("-e,--events", event_lists, "Extra events to count and print (comma-separated)");
  stat_command->add_flag("--print-groups", stat.print_groups, "Print the counter groups and exit");
  stat_command->add_flag("--print-perf", stat.print_perf,
                         "Print the perf stat command that collects the same, and exit");
  stat_command
      ->add_option("--root", stat.root,
                   "With --print-groups or --print-perf: plan for the machine whose /sys and /proc copies are "
                   "ROOT/sys and ROOT/proc")
      ->check(CLI::ExistingDirectory);
  add_toggle_option(*stat_command, "--smt", stat.smt, "Plan for SMT on or off (default: this machine's)");
  add_toggle_option(
      *stat_command, "--perf-metrics", stat.perf_metrics,
      "Level 1-2 from Intel's PERF_METRICS register or general counters (default: on where the kernel offers it)");
  stat_command->add_flag("--info", stat.all_info, "All Info metrics, even if their events need more groups");
  stat_command->add_flag("--kernel", stat.include_kernel, "Also count in the kernel (needs perf_event_paranoid <= 1)");
  add_live_options(*stat_command, stat);
  add_per_unit_options(*stat_command, stat.per);
  stat_command->prefix_command();

  ImportOptions imported;
  auto* import_command = app.add_subcommand("import", "Show the breakdown of counts from a file (perf stat -x)");
  import_command->add_option("file", imported.file, "perf stat -x output or counts file (README)")->required();
  add_report_options(*import_command, imported.report);
  import_command->add_option("--cpu", imported.cpu, "Use the model for this CPU (default: this machine's)");
  import_command->add_option("--model", imported.model_file, "Use the model in FILE (docs/model-format.md)")
      ->check(CLI::ExistingFile)
      ->excludes("--cpu");
  add_metrics_file_option(*import_command, imported.metrics_file);
  add_retire_latencies_option(*import_command, imported.retire_latencies);
  add_toggle_option(*import_command, "--smt", imported.smt, "SMT of the measured machine (default: the file's)");
  add_toggle_option(*import_command, "--perf-metrics", imported.perf_metrics,
                    "Whether the counts came from Intel's PERF_METRICS (default: when the file has its events)");
  import_command->add_flag("--info", imported.all_info, "All Info metrics, even without their events");
  import_command->add_flag("--per-interval", imported.per_interval, "One report per perf stat -I interval");
  add_per_unit_options(*import_command, imported.per);
  import_command
      ->add_flag("--columns", imported.report.columns,
                 "One line per report: time and level 1 (with --per-interval one per interval)")
      ->excludes("--csv")
      ->excludes("--json")
      ->excludes("--per-thread")
      ->excludes("--per-core")
      ->excludes("--per-socket");
  import_command->add_option("--topology", imported.topology,
                             "lscpu -p=CPU,CORE,SOCKET output of the measured machine (default: this machine's)");
  import_command
      ->add_option("--root", imported.root,
                   "Read the measured machine's CPU from ROOT/sys and ROOT/proc (copies of its /sys and /proc): "
                   "its model and, on big.LITTLE, which core PMU counts which kind")
      ->check(CLI::ExistingDirectory);

  RecordOptions record;
  auto* record_command = add_record_command(app, record);
  ProfileOptions profiled;
  auto* report_command = app.add_subcommand("report", "Show the hot functions of a sampled run, each with its tree");
  report_command->add_option("file", profiled.file, "A data file of topdown record, or perf script output (README)")
      ->required();
  add_report_options(*report_command, profiled.report);
  report_command->add_option("--cpu", profiled.cpu, "Use the model for this CPU (default: this machine's)");
  report_command->add_option("--model", profiled.model_file, "Use the model in FILE (docs/model-format.md)")
      ->check(CLI::ExistingFile)
      ->excludes("--cpu");
  add_toggle_option(*report_command, "--smt", profiled.smt, "SMT of the measured machine (default: off)");
  add_toggle_option(*report_command, "--perf-metrics", profiled.perf_metrics,
                    "Level 1-2 from Intel's PERF_METRICS fields (default: when the file has them)");
  report_command->add_flag("--info", profiled.all_info, "All Info metrics, even without their events");
  report_command->add_option("--min-share", profiled.min_share_percent,
                             "Flag only functions with at least P% of the clockticks (default 5)");
  report_command->add_option("--sort", profiled.sort_node, "Order functions by this node's slots");
  report_command->add_flag("--children", profiled.children,
                           "Also each function's tree from every sample with it on the call stack (record -g)");
  report_command->add_option("--callers", profiled.callers, "The call paths into FUNC, each with its tree");
  report_command->add_option("--pprof", profiled.pprof, "Also write the profile as gzipped profile.proto to FILE");
  ServeOptions served;
  auto* serve_command = add_serve_command(app, served);
  CompareOptions compared;
  auto* compare_command = app.add_subcommand(
      "compare", "Compare two saved --json reports (or perf files, or recordings): changes and their significance");
  compare_command
      ->add_option("a", compared.a,
                   "The report before (A): a --json report, a perf stat file or a recording; several runs joined "
                   "by commas")
      ->required();
  compare_command->add_option("b", compared.b, "The report after (B), as A")->required();
  compare_command->add_option("-l,--level", compared.report.level, "Tree depth for perf files and recordings (1-6)")
      ->check(CLI::Range(1, 6));
  auto* compare_csv = compare_command->add_flag("--csv", compared.report.csv, "CSV output (see README)");
  compare_command->add_flag("--json", compared.report.json, "JSON output (see README)")->excludes(compare_csv);
  compare_command->add_flag("--no-color", compared.report.no_color, "Never use colour");
  compare_command->add_option("-o,--output", compared.report.output, "Write the comparison to FILE");
  compare_command->add_option("--html", compared.report.html,
                              "Also write the comparison as one self-contained HTML page to FILE");
  compare_command->add_option("--alpha", compared.alpha, "Significance level of Welch's t-test (default 0.05)")
      ->check(number_that([](double alpha) { return alpha > 0 && alpha <= 0.5; },
                          "a significance level above 0 and at most 0.5"));
  compare_command
      ->add_option("--min-change", compared.min_change,
                   "Smallest change called significant: X points for tree nodes, X percent of A for Info metrics "
                   "(default 1)")
      ->check(number_that([](double change) { return change >= 0; },
                          "a change of 0 or more (points for tree nodes, percent for Info metrics)"));
  compare_command->add_option("--fail-if", compared.fail_if, "Exit 1 when NODE moved past LIMIT: 'Backend_Bound>+2'");
  compare_command->add_option("--cpu", compared.cpu,
                              "The model for perf files and perf script (default: this machine's; a recording's own)");
  compare_command
      ->add_option("--model", compared.model_file, "The model in FILE for recordings and perf script instead")
      ->check(CLI::ExistingFile)
      ->excludes("--cpu");
  add_toggle_option(*compare_command, "--smt", compared.smt, "SMT where perf files were counted");

  auto* info_command = app.add_subcommand("info", "Show the CPU, its PMU and the model topdown would use");
  std::string info_root;
  info_command
      ->add_option("--root", info_root,
                   "Read ROOT/sys and ROOT/proc instead of /sys and /proc (a copy of another machine's); no "
                   "counter health check then")
      ->check(CLI::ExistingDirectory);

  std::string list_cpu;
  auto* list_command = app.add_subcommand("list", "Print a model's tree and Info metrics, or every model");
  auto* list_cpu_option = list_command->add_option("--cpu", list_cpu, "Model to list (default: this CPU's)");
  std::string list_metrics_file;
  add_metrics_file_option(*list_command, list_metrics_file);
  bool list_models = false;
  bool list_markdown = false;
  list_command->add_flag("--models", list_models, "One row per model: the CPUs it fits, core type and TMA version")
      ->excludes(list_cpu_option)
      ->excludes("--metrics-file");
  list_command->add_flag("--markdown", list_markdown, "--models as a Markdown table (the README's Supported CPUs)")
      ->needs("--models");

  std::string describe_node;
  std::string describe_cpu;
  auto* describe_command = app.add_subcommand("describe", "Explain one node or Info metric");
  describe_command->add_option("node", describe_node, "Node name (TMA or vendor name)")->required();
  describe_command->add_option("--cpu", describe_cpu, "Model to use (default: this CPU's)");
  std::string describe_metrics_file;
  add_metrics_file_option(*describe_command, describe_metrics_file);

  // Everything after "--" is the workload, untouched by option parsing.
  int own_argc = argc;
  std::vector<std::string> workload;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--") {
      own_argc = i;
      workload.assign(argv + i + 1, argv + argc);
      break;
    }
  }
  // Leftovers are checked here, so every subcommand gets them; stat and
  // record take theirs as the command to run.
  const std::vector<CLI::App*> commands =
      app.get_subcommands(std::function<bool(CLI::App*)>([](CLI::App*) { return true; }));
  std::vector<std::string> names;
  for (CLI::App* command : commands) {
    command->allow_extras();
    names.push_back(command->get_name());
  }
  if (own_argc > 1) {
    const std::string first = argv[1];
    if (!first.starts_with('-') && std::find(names.begin(), names.end(), first) == names.end()) {
      say(unknown_command_message(first, names));
      return kTopdownFailed;
    }
    if (const auto error = option_before_command({argv + 1, argv + own_argc}, names)) {
      say(*error);
      return kTopdownFailed;
    }
  }
  try {
    app.parse(own_argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return app.exit(error);  // --help, --version
    // "-l=2" fails as the value "=2": say what was meant.
    const std::vector<CLI::App*> parsed = app.get_subcommands();
    const auto value = parsed.empty() ? std::nullopt : value_error(*parsed.front());
    say(value ? *value : parse_error_line(app, error));
    return kTopdownFailed;
  }
  for (const CLI::App* command : app.get_subcommands()) {
    const bool runs_a_command = command == stat_command || command == record_command;
    auto error = value_error(*command);
    if (!error) error = leftover_error(*command, runs_a_command, workload);
    if (error) {
      say(*error);
      return kTopdownFailed;
    }
  }

  try {
    if (*stat_command) {
      for (const auto& list : event_lists) {
        for (auto& event : split_event_list(list)) stat.extra_events.push_back(event);
      }
      stat.command = stat_command->remaining();
      stat.command.insert(stat.command.end(), workload.begin(), workload.end());
      return run_stat(stat);
    }
    if (*record_command) {
      record.live.command = record_command->remaining();
      record.live.command.insert(record.live.command.end(), workload.begin(), workload.end());
      return run_record(record);
    }
    if (*import_command) return run_import(imported);
    if (*report_command) return run_report(profiled);
    if (*serve_command) return run_serve(served);
    if (*compare_command) return run_compare(compared);
    if (*info_command) return run_info(info_root);
    if (*list_command) {
      return list_models ? run_list_models(list_markdown ? ModelListFormat::Markdown : ModelListFormat::Text)
                         : run_list(list_cpu, list_metrics_file);
    }
    if (*describe_command) return run_describe(describe_node, describe_cpu, describe_metrics_file);
  } catch (const topdown::collect::CommandNotStarted& error) {
    say(std::string("topdown: ") + error.what());
    return error.exit_status();
  } catch (const topdown::Error& error) {
    say(std::string("topdown: ") + error.what());
    return kTopdownFailed;
  } catch (const std::exception& error) {
    say(std::string("topdown: internal error: ") + error.what());
    return kTopdownFailed;
  }
  return kTopdownFailed;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace topdown::cli;
  reserve_standard_streams();
  install_signal_handlers();
  return status_after_streams(run_topdown(argc, argv));
}
