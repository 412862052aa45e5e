#pragma once
// How stat evaluates what it counted: every sample of the run with the same
// plan, as one report, one per unit (--per-*) or one per cgroup (-G).
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/evaluation_options.h"
#include "cli/stat_units.h"
#include "collect/collect.h"
#include "eval/evaluate.h"
#include "report/report.h"

namespace topdown::cli {

// Evaluates every sample of the run with the same plan: as one report, with
// --per-* one per unit, with -G one per cgroup (and its units), and
// describes the run.
class Analysis {
 public:
  Analysis(const StatOptions& options, const model::Model& model, const schedule::Plan& plan,
           const model::RunVariables& vars, const collect::Target& target, const LiveUnits* units)
      : evaluator_(model, plan.nodes, evaluation_options(plan, vars)), units_(units) {
    run_.describe_model(model);
    run_.command = options.command;
    run_.cpus = target.cpus;
    run_.pids.assign(target.pids.begin(), target.pids.end());
    for (const collect::Cgroup& cgroup : target.cgroups) run_.cgroups.push_back(cgroup.name);
    run_.groups = static_cast<int>(plan.groups.size());
    run_.multiplexed = plan.multiplexed() && !options.no_multiplex;
    run_.extra_events = options.extra_events;
  }

  // The reports of one record: of `sample`, or of each unit of `places`;
  // with -G of each cgroup, then of each of its units. `notes` are the run's
  // warnings, for every report.
  std::vector<report::Report> reports(const counts::Sample& sample, const std::vector<counts::Place>& places,
                                      const report::RunInfo& run, const std::vector<std::string>& notes) const {
    std::vector<report::Report> reports;
    if (run_.cgroups.empty()) {
      if (!units_) return {report_of("", sample, run, notes)};
      add_units(places, "", run, notes, reports);
      return reports;
    }
    for (const aggregate::CgroupPlaces& cgroup : aggregate::split_by_cgroup(places)) {
      std::vector<std::string> cgroup_notes = notes;
      if (!cgroup.whole.any_enabled()) {
        cgroup_notes.push_back("cgroup " + cgroup.cgroup +
                               ": none of its tasks ran on the counted CPUs, so nothing was measured");
      }
      reports.push_back(report_of(cgroup.cgroup, cgroup.whole, run, cgroup_notes));
      if (units_) add_units(cgroup.places, cgroup.cgroup + " ", run, notes, reports);
    }
    return reports;
  }

  report::RunInfo interval_run(const collect::Interval& interval) const {
    report::RunInfo run = run_;
    run.elapsed_s = interval.sample.duration_s;
    return run;
  }

  report::RunInfo whole_run(const collect::WorkloadResult& result) const {
    report::RunInfo run = run_;
    run.elapsed_s = result.elapsed_s;
    run.exit_code = result.exit_code;
    run.signal = result.signal;
    return run;
  }

 private:
  void add_units(const std::vector<counts::Place>& places, const std::string& prefix, const report::RunInfo& run,
                 std::vector<std::string> notes, std::vector<report::Report>& reports) const {
    aggregate::Aggregation split = units_->split(places);
    notes.insert(notes.end(), split.warnings.begin(), split.warnings.end());
    for (const aggregate::Unit& unit : split.units) {
      report::RunInfo unit_run = run;
      unit_run.elapsed_s = unit.sample.duration_s;
      reports.push_back(report_of(prefix + unit.label, unit.sample, unit_run, notes));
    }
  }

  report::Report report_of(const std::string& scope, const counts::Sample& sample, const report::RunInfo& run,
                           const std::vector<std::string>& notes) const {
    eval::Evaluation evaluation = evaluator_.evaluate(sample);
    evaluation.warnings.insert(evaluation.warnings.end(), notes.begin(), notes.end());
    return {scope, std::move(evaluation), sample, run};
  }

  eval::Evaluator evaluator_;  // prepared once for every interval and unit
  const LiveUnits* units_;
  report::RunInfo run_;
};

// The warning of a run whose workload `signal` killed.
inline std::string killed_note(int signal) {
  return "the workload was killed by " + report::signal_name(signal) + "; the counts cover it until then";
}

}  // namespace topdown::cli
