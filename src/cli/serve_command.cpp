#include "cli/serve_command.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <csignal>
#include <cstdio>
#include <deque>
#include <optional>

#include "cli/argument_check.h"
#include "cli/cgroup_counting_option.h"
#include "cli/context.h"
#include "cli/evaluation_options.h"
#include "cli/stat_run.h"
#include "collect/collect.h"
#include "common/printable.h"
#include "schedule/plan.h"
#include "serve/http_server.h"
#include "serve/snapshot.h"
#include "settings/hybrid.h"
#include "settings/stat.h"

namespace topdown::cli {
namespace {

constexpr int kDefaultIntervalMs = 1000;

// "adl", or "adl and adl_ecore" on a CPU with cores of several types.
std::string model_names(const std::vector<serve::CoreTypePart>& parts) {
  std::vector<std::string> names;
  for (const serve::CoreTypePart& part : parts) names.push_back(part.model);
  return fmt::format("{}", fmt::join(names, " and "));
}

// What GET / says.
std::string description(const std::vector<serve::CoreTypePart>& parts, const collect::Target& target, int interval_ms) {
  std::string what = !target.cpus.empty() ? fmt::format("CPUs {}", fmt::join(target.cpus, ","))
                                          : fmt::format("processes {}", fmt::join(target.pids, ","));
  if (!target.cgroups.empty()) {
    std::vector<std::string> names;
    for (const collect::Cgroup& cgroup : target.cgroups) names.push_back(cgroup.name);
    what = fmt::format("cgroups {} on {}", fmt::join(names, ","), what);
  }
  if (target.cgroup_tree) {
    what = fmt::format("{} and the cgroups {} level{} below it on {}", target.cgroup_tree->top.name,
                       target.cgroup_tree->depth, target.cgroup_tree->depth > 1 ? "s" : "", what);
  }
  return fmt::format(
      "topdown serve: top-down breakdown of {} with the {} model{} every {} ms; GET /metrics (Prometheus), /report "
      "(JSON), /healthz",
      what, model_names(parts), parts.size() > 1 ? "s" : "", interval_ms);
}

report::RunInfo run_info(const model::Model& model, const schedule::Plan& plan, const collect::Target& target) {
  report::RunInfo run;
  run.describe_model(model);
  run.cpus = target.cpus;
  run.pids.assign(target.pids.begin(), target.pids.end());
  run.groups = static_cast<int>(plan.groups.size());
  run.multiplexed = plan.multiplexed();
  return run;
}

// Each client connection is a descriptor: as many as the hard limit allows
// (the soft one is often 1024), as Go's runtime does for exporters.
void raise_descriptor_limit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &limit);
  }
}

}  // namespace

CLI::App* add_serve_command(CLI::App& app, ServeOptions& options) {
  using aggregate::View;
  settings::StatOptions& stat = options.stat;
  CLI::App* command = app.add_subcommand("serve", "Count continuously and serve the breakdown to Prometheus");
  command->add_option("--listen", options.listen, "ADDRESS:PORT to serve on (default 127.0.0.1:9842, loopback only)");
  command->add_option("--web-config", options.web_config,
                      "TLS, basic authentication and headers from FILE (Prometheus exporter-toolkit's YAML)");
  command->add_option("-l,--level", stat.report.level, "Tree depth to compute (1-6)")->check(CLI::Range(1, 6));
  command->add_option("--cpu", stat.cpu, "Use the model for this CPU (see `topdown list --cpu`)");
  command->add_option("--model", stat.model_file, "Use the model in FILE (docs/model-format.md)")
      ->check(CLI::ExistingFile)
      ->excludes("--cpu");
  command->add_option("--counters", stat.counters, "Usable general counters (overrides the health check)")
      ->check(CLI::Range(1, 64));
  command->add_option("-I,--interval", stat.interval_ms, "Count in intervals of MS milliseconds (default 1000)")
      ->check(CLI::Range(10, 3'600'000));
  auto* all = command->add_flag("-a,--all-cpus", stat.system_wide, "Count every online CPU (the default)");
  auto* cpus = command->add_option("-C,--cpus", stat.cpu_list, "Count these CPUs (0-3,6)")->excludes(all);
  command->add_option("-p,--pid", stat.pids, "Count these running processes (PID[,PID]); serve ends with them")
      ->delimiter(',')
      ->check(process_id_check())
      ->excludes(all)
      ->excludes(cpus);
  command
      ->add_option("-G,--cgroup", stat.cgroups,
                   "Count only the tasks of these cgroups (PATH[,PATH], under the cgroup mount as in "
                   "/proc/PID/cgroup), each its own series, on every CPU or those of -C")
      ->delimiter(',')
      ->excludes("--pid");
  command
      ->add_option("--cgroups-under", stat.cgroups_under,
                   "Count PATH's tasks and, each its own series, every cgroup below it to --cgroup-depth levels, "
                   "following cgroups as they are made and removed (/kubepods.slice, /system.slice)")
      ->excludes("--pid")
      ->excludes("--cgroup");
  command->add_option("--cgroup-depth", stat.cgroup_depth, "Levels below --cgroups-under PATH to count (default 1)")
      ->check(CLI::Range(1, 16))
      ->needs("--cgroups-under");
  add_cgroup_counting_option(*command, stat.cgroup_counting);
  command->add_flag("--kernel", stat.include_kernel, "Also count in the kernel");
  command->add_flag("--info", stat.all_info, "All Info metrics, even if their events need more groups");
  auto* per_thread = command->add_flag_callback(
      "--per-thread", [&stat] { stat.per = View::Thread; }, "Series per CPU (per thread with -p)");
  auto* per_core = command->add_flag_callback(
      "--per-core", [&stat] { stat.per = View::Core; }, "Series per core");
  auto* per_socket = command->add_flag_callback(
      "--per-socket", [&stat] { stat.per = View::Socket; }, "Series per socket (the default with CPUs)");
  per_thread->excludes(per_core)->excludes(per_socket);
  per_core->excludes(per_socket);
  return command;
}

int run_serve(const ServeOptions& options) {
  const serve::ListenAddress address = serve::parse_listen_address(options.listen);
  const serve::WebConfig web =
      options.web_config.empty() ? serve::WebConfig{} : serve::read_web_config(options.web_config);
  // The file's keys are quoted in them: none may drive the terminal.
  for (const std::string& warning : web.warnings) {
    std::fprintf(stderr, "topdown: warning: %s\n", printable(warning).c_str());
  }
  settings::StatOptions stat = options.stat;
  if (!stat.interval_ms) stat.interval_ms = kDefaultIntervalMs;
  if (stat.cpu_list.empty() && stat.pids.empty()) stat.system_wide = true;

  Context context = make_context(stat.cpu, "", stat.model_file);
  settings::check_countable(stat, context.cpu, context.model);
  const std::vector<CoreTypePlan> types = core_type_plans(stat, context);
  const bool several_types = settings::counts_core_types(context.cpu, types);
  collect::Target target = settings::stat_target(stat);
  const bool cpus_counted = !target.cpus.empty();
  // A cgroup's whole is one series per cgroup; its units only when asked.
  const bool per_cgroup = !target.cgroups.empty() || target.cgroup_tree;
  if (stat.per == aggregate::View::Global && cpus_counted && !per_cgroup) {
    stat.per = aggregate::View::Socket;
  }
  settings::check_unit_view(stat, target);
  std::optional<aggregate::Topology> topology;
  if (cpus_counted) topology = aggregate::Topology::read_sysfs();

  // Each core type's groups on its own PMU and CPUs, its events named after
  // its PMU (settings::core_type_groups); a CPU of one type counts its one
  // tree as it always has, without a core_type label.
  std::vector<collect::CounterGroup> groups;
  std::vector<std::string> part_pmus;  // the PMU of each part's events; none on a CPU of one type
  std::vector<serve::CoreTypePart> parts;
  std::deque<eval::Evaluator> evaluators;  // the parts point into it
  const auto add_part = [&](const CoreTypePlan& type, std::string core_type,
                            std::set<std::string, std::less<>> core_wide_events) {
    const eval::Evaluator& evaluator =
        evaluators.emplace_back(type.model, type.plan.nodes, evaluation_options(type.plan, type.vars));
    parts.push_back({&evaluator, type.model.name, run_info(type.model, type.plan, target), std::move(core_type),
                     std::move(core_wide_events)});
  };
  if (several_types) {
    settings::PlacedCoreTypes placed = settings::place_core_types(context.cpu, types, stat.per, target);
    groups = std::move(placed.groups);
    for (settings::PlacedCoreType& type : placed.types) {
      add_part(*type.type, type.placement.core_type, std::move(type.core_wide_events));
      part_pmus.push_back(type.placement.pmu);
    }
  } else {
    settings::CountedGroups counted = settings::counted_groups(types.front().plan, stat.per, target);
    groups = std::move(counted.groups);
    add_part(types.front(), "", std::move(counted.core_wide_events));
  }

  const std::chrono::milliseconds period(*stat.interval_ms);
  serve::SnapshotBuilder builder(
      parts,
      serve::ScopePlan{cpus_counted ? "machine" : "processes", stat.per, topology ? &*topology : nullptr, per_cgroup},
      period);
  serve::SnapshotStore store(period);

  // A hangup (the terminal closing, `systemctl reload`) must not end the
  // exporter; a client gone while it is answered must not kill it either.
  std::signal(SIGHUP, SIG_IGN);
  std::signal(SIGPIPE, SIG_IGN);
  raise_descriptor_limit();
  serve::HttpServer server(address, store, description(parts, target, *stat.interval_ms), web);
  std::fprintf(stderr, "topdown: serving %s://%s/metrics (model%s %s, every %d ms)\n", web.tls ? "https" : "http",
               serve::ListenAddress{address.host, server.port()}.text().c_str(), parts.size() > 1 ? "s" : "",
               model_names(parts).c_str(), *stat.interval_ms);

  collect::Options collect_options;
  collect_options.include_kernel = stat.include_kernel;
  collect::IntervalOptions intervals;
  intervals.period = period;
  // On the counting thread: evaluate, then swap the snapshot in; no socket is touched.
  intervals.on_interval = [&](const collect::Interval& interval) {
    if (part_pmus.empty()) {
      store.publish(builder.add(interval.time_s, interval.sample, interval.places));
      return;
    }
    std::vector<counts::Sample> samples;
    std::vector<std::vector<counts::Place>> places;
    for (const std::string& pmu : part_pmus) {
      samples.push_back(settings::core_type_counts(interval.sample, pmu));
      places.push_back(settings::core_type_places(interval.places, pmu));
    }
    std::vector<serve::CoreTypeCounts> counts;
    for (size_t i = 0; i < part_pmus.size(); ++i) counts.push_back({&samples[i], &places[i]});
    store.publish(builder.add(interval.time_s, counts));
  };
  collect::collect(target, groups, collect_options, intervals);
  store.stop_counting();
  server.stop();
  return 0;
}

}  // namespace topdown::cli
