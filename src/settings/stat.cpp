#include "settings/stat.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"
#include "events/sysfs_events.h"
#include "settings/hybrid.h"

namespace topdown::settings {

namespace {

// Each CHA box is one PMU counting on a CPU of every socket: the boxes of one socket.
int cha_boxes(const cpu::CpuInfo& cpu) {
  return static_cast<int>(std::count_if(cpu.pmus.begin(), cpu.pmus.end(), [](const cpu::PmuInfo& pmu) {
    return events::box_number(pmu.name, "uncore_cha").has_value();
  }));
}

// The counters of the machine that counts are known: its health check ran,
// or its cpuid said (not so for a copy of another machine's /sys).
bool counters_known(const cpu::CpuInfo& cpu) { return cpu.working_counters || cpu.reported_counters > 0; }

// The NMI watchdog holds a counter on every CPU, unless the health check,
// which counted beside it, found one fewer than the CPU reports already.
bool watchdog_holds_a_counter(const cpu::CpuInfo& cpu) {
  if (!cpu.nmi_watchdog) return false;
  return !(cpu.working_counters && *cpu.working_counters < cpu.reported_counters);
}

}  // namespace

std::string nmi_watchdog_note(const schedule::CounterBudget& budget) {
  if (!budget.nmi_watchdog) return "";
  return fmt::format(
      "the NMI watchdog (/proc/sys/kernel/nmi_watchdog is 1) holds a counter on every CPU, so the plan uses {} "
      "general counters; free it with `sysctl kernel.nmi_watchdog=0` (as root) to count with {}",
      budget.general, budget.general + 1);
}

StatPlanning plan_stat(const StatOptions& options, const cpu::CpuInfo& cpu, const model::Model& model,
                       const model::RetireLatencies& given_latencies) {
  StatPlanning planning;
  planning.this_machine = model.runs_on(cpu);
  planning.vars.smt_enabled = resolve(options.smt, cpu.smt_enabled);
  planning.vars.perf_metrics = use_perf_metrics(options.perf_metrics, cpu, model);
  if (planning.this_machine) {
    planning.vars.online_cpus = cpu.online_cpus;
    planning.vars.sockets = cpu.sockets;
    planning.vars.chas_per_socket = cha_boxes(cpu);
    planning.vars.cores_per_socket = cpu.cores_per_socket;
  }
  planning.vars.retire_latencies = given_latencies;
  planning.selection.max_level = options.report.level;
  planning.selection.extra_events = options.extra_events;
  planning.selection.all_info = options.all_info;
  planning.budget = counter_budget(cpu, model, planning.vars.smt_enabled, options.counters);
  return planning;
}

bool use_perf_metrics(Toggle choice, const cpu::CpuInfo& cpu, const model::Model& model) {
  return resolve(choice, model.runs_on(cpu) ? cpu.topdown_metrics : true);
}

schedule::CounterBudget counter_budget(const cpu::CpuInfo& cpu, const model::Model& model, bool smt_enabled,
                                       std::optional<int> counters_override) {
  const model::ModelCounters& declared = model.counters;
  const bool this_machine = model.runs_on(cpu);
  schedule::CounterBudget budget = schedule::host_budget(cpu, model);
  if (counters_override) {
    budget.general = *counters_override;
  } else if ((!this_machine || plans_by_core_type(cpu, model) || !counters_known(cpu)) &&
             declared.general_for(smt_enabled) > 0) {
    budget.general = static_cast<int>(declared.general_for(smt_enabled));
  } else if (!this_machine && model.cpus.front().vendor == cpu::Vendor::Arm) {
    budget.general = schedule::kArmEventCountersWithoutCheck;  // this machine's count says nothing of an Arm CPU's
  }
  const bool intel = (this_machine ? cpu.id.vendor : model.cpus.front().vendor) == cpu::Vendor::Intel;
  if (declared.fixed == 0) budget.fixed = intel ? 3 : 0;
  if (!counters_override && this_machine && watchdog_holds_a_counter(cpu) && budget.general > 1) {
    budget.general -= 1;
    budget.nmi_watchdog = true;
  }
  return budget;
}

void check_countable(const StatOptions& options, const cpu::CpuInfo& cpu, const model::Model& model) {
  if (!options.root.empty()) {
    throw Error("--root " + options.root +
                " plans for the machine whose /sys copy it holds, and counts nothing here; add --print-perf or "
                "--print-groups, or leave out --root");
  }
  if (!model.runs_on(cpu) && model.cpus.front().vendor != cpu.id.vendor) {
    throw Error("--cpu " + options.cpu + " chose a model for " + cpu::vendor_name(model.cpus.front().vendor) +
                " CPUs (" + model.title + "), whose events this " + cpu::vendor_name(cpu.id.vendor) +
                " CPU cannot count; use --print-perf or --print-groups with it, or leave out --cpu");
  }
  const bool has_target = !options.command.empty() || !options.pids.empty() || options.system_wide ||
                          !options.cpu_list.empty() || !options.cgroups.empty();
  if (!has_target) {
    throw Error("no command to measure; usage: topdown stat [options] -- CMD [ARGS...] (or -p PID, or -a)");
  }
}

void check_live_options(const StatOptions& options) {
  if (options.no_multiplex && options.interval_ms) {
    throw Error(
        "--no-multiplex reruns the command once per counter group, so its intervals would not line up; "
        "leave out -I or --no-multiplex");
  }
  if (options.report.columns && !options.cgroups.empty()) {
    throw Error("--columns shows one line per record, not one per cgroup; leave out --columns or -G");
  }
}

void check_repeat_options(const StatOptions& options) {
  if (options.repeat <= 1) return;
  auto refuse = [](std::string_view what) {
    throw Error(fmt::format("-r repeats a command and reports the runs' means; {}", what));
  };
  if (options.interval_ms) refuse("its intervals would not line up: leave out -I or -r");
  if (!options.pids.empty() || options.system_wide || !options.cpu_list.empty() || !options.cgroups.empty()) {
    refuse("-p, -a, -C and -G count what runs already, which cannot be rerun: give a command instead");
  }
  if (options.per != aggregate::View::Global) refuse("reports per unit are not repeated: leave out --per-*");
  if (options.command.empty()) refuse("give the command to repeat after --");
}

collect::Target stat_target(const StatOptions& options, const std::filesystem::path& cpu_dir) {
  collect::Target target;
  target.command = options.command;
  // A process or cgroup given twice (-p 7,7; -G a,/a) is counted once: two
  // counters on one task would count it twice. select_cpus merges -C's CPUs.
  for (const int pid : options.pids) {
    if (std::find(target.pids.begin(), target.pids.end(), pid) == target.pids.end()) target.pids.push_back(pid);
  }
  // perf counts a cgroup per CPU: without -C, on every CPU.
  const bool cgroups_counted = !options.cgroups.empty() || !options.cgroups_under.empty();
  if (options.system_wide || !options.cpu_list.empty() || cgroups_counted) {
    target.cpus = collect::select_cpus(options.cpu_list, cpu_dir);
  }
  if (!options.cgroups_under.empty()) {
    target.cgroup_tree = collect::find_cgroup_tree(options.cgroups_under, options.cgroup_depth);
  }
  if (!cgroups_counted && options.cgroup_counting != collect::CgroupCounting::Automatic) {
    throw Error(
        "--cgroup-counting chooses how the cgroups of -G or --cgroups-under are counted; give one, or leave "
        "out --cgroup-counting");
  }
  if (!options.cgroups.empty()) {
    for (collect::Cgroup& cgroup : collect::find_cgroups(options.cgroups)) {
      const auto same = [&](const collect::Cgroup& kept) { return kept.name == cgroup.name; };
      if (std::none_of(target.cgroups.begin(), target.cgroups.end(), same)) target.cgroups.push_back(std::move(cgroup));
    }
  }
  if (target.cgroup_tree || !target.cgroups.empty()) {
    const collect::Cgroup& first = target.cgroup_tree ? target.cgroup_tree->top : target.cgroups.front();
    target.cgroup_counting = collect::choose_cgroup_counting(options.cgroup_counting, first.directory);
  }
  return target;
}

void check_unit_view(const StatOptions& options, const collect::Target& target) {
  if (options.per == aggregate::View::Global) return;
  const std::string_view flag = aggregate::view_name(options.per);
  if (options.report.columns) {
    throw Error(fmt::format("--columns shows one line per record, not one per unit; leave out --columns or {}", flag));
  }
  if (!target.cpus.empty()) return;
  if (options.per != aggregate::View::Thread) {
    throw Error(fmt::format("{} needs system-wide counting; add -a (every CPU) or -C LIST", flag));
  }
  if (target.pids.empty()) {
    throw Error(
        "--per-thread cannot split a command: its threads and children are counted together; "
        "attach to it with -p PID or count every CPU with -a");
  }
}

CountedGroups counted_groups(const schedule::Plan& plan, aggregate::View per, const collect::Target& target) {
  const bool keep_core_wide = per != aggregate::View::Global && !target.cpus.empty();
  CountedGroups counted;
  for (const auto& group : plan.groups) {
    collect::CounterGroup opened;
    opened.copies = group.copies;
    for (const events::Encoding& event : group.events) {
      if (!event.percore) {
        opened.events.push_back(event);
      } else if (keep_core_wide) {
        counted.core_wide_events.insert(event.name);
        opened.events.push_back(event);
      }
    }
    if (!opened.events.empty()) counted.groups.push_back(std::move(opened));
  }
  return counted;
}

}  // namespace topdown::settings
