// topdown record: samples the plan's groups into a data file.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "cli/argument_check.h"
#include "cli/commands.h"
#include "cli/context.h"
#include "cli/file_names.h"
#include "cli/output.h"
#include "cli/output_paths.h"
#include "cli/perf_command.h"
#include "cli/record_command.h"
#include "cli/stat_run.h"
#include "common/strings.h"
#include "recording/recording.h"
#include "report/report.h"
#include "sampling/sampling.h"
#include "schedule/plan.h"
#include "settings/hybrid.h"
#include "settings/record.h"
#include "settings/stat.h"

namespace topdown::cli {

namespace {

// The data file's header (its groups are filled in by the sampling stage).
// Its command is the command line, "-p PID[,PID]", "-a" or "-C LIST", or
// "-a -- CMD" for CPUs sampled while a command runs. `model_name` is the
// model's name, or the --model path when one was given.
recording::Header record_header(const settings::RecordOptions& options, const cpu::CpuInfo& cpu,
                                const std::string& model_name, const model::RunVariables& vars) {
  const StatOptions& live = options.live;
  check_outputs_apart({{"the file of --model", live.model_file}}, {{"-o", options.output}});
  recording::Header header;
  header.model = model_name;
  header.cpu = cpu.id.brand.empty() ? cpu.id.vendor_string : cpu.id.brand;
  header.level = live.report.level;
  std::string place;
  if (!live.pids.empty()) {
    place = "-p";
    for (std::size_t i = 0; i < live.pids.size(); ++i) place += (i ? "," : " ") + std::to_string(live.pids[i]);
  } else if (live.system_wide || !live.cpu_list.empty()) {
    place = live.cpu_list.empty() ? "-a" : "-C " + live.cpu_list;
  }
  std::string command;
  for (const std::string& word : live.command) command += (command.empty() ? "" : " ") + word;
  header.command = place.empty() ? command : command.empty() ? place : place + " -- " + command;
  header.smt_enabled = vars.smt_enabled;
  header.cpus_online = cpu.online_cpus > 0 ? cpu.online_cpus : 1;
  return header;
}

// --print-perf: the perf record line of each core type's tree, into its
// own file on a hybrid CPU (perf script names an event that was given a
// name without its PMU, so one file could not tell the types apart).
std::string print_record_commands(const std::vector<CoreTypePlan>& types, const std::vector<std::string>& command,
                                  const perf::SampleRate& rate, const perf::CallStacks& call_stacks) {
  if (types.size() == 1) return perf_record_command(types.front().plan, command, rate, call_stacks);
  std::string out =
      "# a hybrid CPU: each core type's tree samples on its own PMU, into its own file, reported with\n"
      "# its own model (perf script names an event given a name without its PMU)\n";
  for (const CoreTypePlan& type : types) {
    const model::Model& model = type.model;
    out += "# " + model.core_type + " (" + model.pmu + "), then: topdown report --cpu " + model.versioned_name() +
           " with its perf script\n";
    out += perf_record_command(type.plan, command, rate, call_stacks, "perf-" + model.pmu + ".data");
  }
  return out;
}

}  // namespace

CLI::App* add_record_command(CLI::App& app, settings::RecordOptions& options) {
  StatOptions& live = options.live;
  auto* command = app.add_subcommand("record", "Sample a command's counter groups into a data file for report");
  command->add_option("-l,--level", live.report.level, "Tree depth whose events are sampled (1-6)")
      ->check(CLI::Range(1, 6));
  command->add_option("--cpu", live.cpu, "Use the model for this CPU (see `topdown list --cpu`)");
  command->add_option("--model", live.model_file, "Use the model in FILE (docs/model-format.md)")
      ->check(CLI::ExistingFile)
      ->excludes("--cpu");
  auto* frequency = command->add_option("-F,--freq", options.frequency,
                                        "Samples per second of each group's running time (default 1000)");
  frequency->check(CLI::Range(uint64_t{1}, uint64_t{1'000'000}));
  command->add_option("-c,--count", options.period, "Sample every PERIOD events of each group's leader")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 62))
      ->excludes(frequency);
  command->add_option("-o,--output", options.output, "Data file to write (default topdown.data)");
  command
      ->add_option("-r,--repeat", live.repeat,
                   "Record the command N times, into FILE-1 ... FILE-N (compare takes them as one side's runs)")
      ->check(CLI::Range(1, 1000));
  auto* frame_pointers =
      command->add_flag("-g", options.frame_pointers, "Record each sample's callers from the frame pointers");
  command
      ->add_option("--call-graph", options.call_graph,
                   "Record callers: fp (as -g), or dwarf[,SIZE] (copy SIZE bytes of stack, default 8192, and "
                   "unwind at report)")
      ->excludes(frame_pointers);
  command->add_option("--max-stack", options.max_stack, "Frames of a call stack at most (default 127)")
      ->check(CLI::Range(1, 1024));
  command->add_flag("-a,--all-cpus", live.system_wide, "Sample everything on every online CPU");
  command->add_option("-C,--cpus", live.cpu_list, "Sample everything on these CPUs (0-3,6)");
  command->add_option("-p,--pid", live.pids, "Sample these running processes (PID[,PID])")
      ->delimiter(',')
      ->check(process_id_check());
  command->add_flag("--kernel", live.include_kernel,
                    "Also sample in the kernel (the default as root or with perf_event_paranoid <= 1)");
  auto* user = command->add_option("--user", live.user, "Run the command as this user (needs root)");
  command->add_flag("--keep-root", live.keep_root, "Under sudo, run the command as root too")->excludes(user);
  command->add_flag("--print-perf", live.print_perf, "Print the perf record command that samples the same, and exit");
  command->prefix_command();
  return command;
}

namespace {

// What a recording's summary says: the lost count is part of every one (a
// profile with holes must say so), and a signal that ended the workload.
void report_recording(const sampling::Result& result, const std::string& file) {
  std::fprintf(stderr, "topdown: wrote %s (%llu bytes, %.2f s); %llu records lost\n", file.c_str(),
               static_cast<unsigned long long>(result.bytes), result.elapsed_s,
               static_cast<unsigned long long>(result.lost));
  if (result.lost > 0) {
    std::fprintf(stderr,
                 "topdown: the kernel dropped %llu records because a ring buffer was full: functions are "
                 "undercounted; sample less often (-F) or fewer CPUs\n",
                 static_cast<unsigned long long>(result.lost));
  }
  if (result.signal) {
    std::fprintf(stderr, "topdown: the workload was killed by %s; the samples cover it until then\n",
                 report::signal_name(*result.signal).c_str());
  }
}

int record_once(const collect::Target& target, const std::vector<collect::CounterGroup>& groups,
                const recording::Header& header, const std::string& file, const sampling::Options& options) {
  const sampling::Result result = sampling::record(target, groups, header, file, options);
  report_recording(result, file);
  return result.exit_code;
}

}  // namespace

int run_record(const RecordOptions& options) {
  const StatOptions& live = options.live;
  settings::check_repeat_options(live);
  Context context = make_context(live.cpu, "", live.model_file);
  const std::vector<CoreTypePlan> types = core_type_plans(live, context);
  const perf::SampleRate rate = settings::sample_rate(options);
  const perf::CallStacks call_stacks = settings::call_stacks(options);
  if (live.print_perf) {
    emit("", assumed_pmu_note(types.front().plan, context.cpu) +
                 print_record_commands(types, live.command, rate, call_stacks));
    return 0;
  }
  settings::check_recordable(options, context.cpu, context.model);
  const collect::Target target = settings::stat_target(live);
  sampling::Options sampling_options;
  sampling_options.rate = rate;
  sampling_options.call_stacks = call_stacks;
  // Without kernel samples, time a function spends in the kernel (its page
  // faults, its system calls) would be charged to whichever function the
  // next user-mode sample lands in; so the kernel is sampled whenever the
  // kernel allows it (root, or perf_event_paranoid <= 1), as perf record does.
  const std::string& paranoid = context.cpu.perf_event_paranoid;
  sampling_options.include_kernel =
      live.include_kernel || ::geteuid() == 0 || (!paranoid.empty() && std::atoi(paranoid.c_str()) <= 1);
  sampling_options.run_as =
      collect::choose_identity(::geteuid(), collect::sudo_variables_from_environment(), {live.user, live.keep_root});
  // The versioned name, so that report evaluates with the version recorded.
  const std::string model_name = live.model_file.empty() ? context.model.versioned_name() : live.model_file;
  recording::Header header = record_header(options, context.cpu, model_name, types.front().vars);
  std::vector<collect::CounterGroup> groups;
  if (settings::counts_core_types(context.cpu, types)) {
    // A hybrid CPU: each core type's groups on its own PMU and CPUs.
    for (const CoreTypePlan& type : types) {
      const settings::CoreTypePlacement placement = settings::core_type_placement(context.cpu, type.model, target);
      if (placement.cpus.empty()) continue;  // -C named no CPU of this type
      header.core_types.push_back(
          {type.model.core_type, type.model.pmu, header.core_types.empty() ? model_name : type.model.versioned_name()});
      for (collect::CounterGroup& group :
           settings::sampled_core_type_groups(settings::sampled_groups(type.plan, target), placement)) {
        groups.push_back(std::move(group));
      }
    }
  } else {
    groups = settings::sampled_groups(types.front().plan, target);
  }

  if (live.repeat <= 1) return record_once(target, groups, header, options.output, sampling_options);
  // -r N: N recordings of one plan, FILE-1 ... FILE-N; the exit status is
  // the first failing run's, and a run ended by a signal ends the series.
  std::vector<std::string> files;
  int status = 0;
  for (int run = 1; run <= live.repeat; ++run) {
    files.push_back(suffixed_path(options.output, std::to_string(run)));
    const sampling::Result result = sampling::record(target, groups, header, files.back(), sampling_options);
    report_recording(result, files.back());
    if (status == 0) status = result.exit_code;
    if (result.signal) break;
  }
  std::fprintf(stderr, "topdown: %zu recordings: %s (topdown compare takes them joined by commas as one side)\n",
               files.size(), join(files, ",").c_str());
  return status;
}

}  // namespace topdown::cli
