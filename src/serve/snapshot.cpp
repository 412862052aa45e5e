#include "serve/snapshot.h"

#include <cmath>
#include <exception>

namespace topdown::serve {
namespace {

std::string_view scope_name(aggregate::View view) {
  switch (view) {
    case aggregate::View::Socket:
      return "socket";
    case aggregate::View::Core:
      return "core";
    case aggregate::View::Thread:
    case aggregate::View::Global:
      break;
  }
  return "cpu";
}

// "S12" -> "12": the digits after a unit label part's letter.
std::string digits_after(std::string_view part) { return std::string(part.substr(1)); }

// Timer periods the interval spanned beyond its own: the counting thread
// fell behind (a last, shorter interval spans none).
uint64_t periods_lost(double interval_s, std::chrono::milliseconds period) {
  const double period_s = std::chrono::duration<double>(period).count();
  if (period_s <= 0) return 0;
  const double periods = std::round(interval_s / period_s);
  return periods > 1 ? static_cast<uint64_t>(periods) - 1 : 0;
}

}  // namespace

Labels unit_labels(aggregate::View view, std::string_view unit, const aggregate::Topology* topology) {
  if (aggregate::kind_of_label(unit) == aggregate::PlaceKind::Thread)
    return {{"scope", "thread"}, {"thread", std::string(unit)}};
  Labels labels{{"scope", std::string(scope_name(view))}};
  if (view == aggregate::View::Socket) {
    labels.emplace_back("socket", digits_after(unit));
  } else if (view == aggregate::View::Core) {  // "S0-C1"
    const size_t dash = unit.find('-');
    labels.emplace_back("core", digits_after(unit.substr(dash + 1)));
    labels.emplace_back("socket", digits_after(unit.substr(0, dash)));
  } else {  // "CPU3"
    const std::string cpu(unit.substr(3));
    labels.emplace_back("cpu", cpu);
    const aggregate::CpuPlace* place = topology ? topology->find(std::stoi(cpu)) : nullptr;
    if (place) {
      labels.emplace_back("core", std::to_string(place->core));
      labels.emplace_back("socket", std::to_string(place->socket));
    }
  }
  return labels;
}

SnapshotBuilder::SnapshotBuilder(const eval::Evaluator& evaluator, ScopePlan plan, std::string model,
                                 report::RunInfo run, std::chrono::milliseconds period)
    : evaluator_(evaluator), plan_(std::move(plan)), model_(std::move(model)), run_(std::move(run)), period_(period) {}

std::shared_ptr<const Snapshot> SnapshotBuilder::add(double time_s, const counts::Sample& sample,
                                                     const std::vector<counts::Place>& places) {
  auto snapshot = std::make_shared<Snapshot>();
  snapshot->model = model_;
  ++health_.intervals;
  health_.lost_intervals += periods_lost(sample.duration_s, period_);
  try {
    snapshot->scopes = evaluate_scopes(sample, places);
    snapshot->time_s = time_s;
    snapshot->interval_s = sample.duration_s;
  } catch (const std::exception& error) {
    ++health_.errors;
    health_.last_error = error.what();
    if (last_) {
      snapshot->scopes = last_->scopes;
      snapshot->time_s = last_->time_s;
      snapshot->interval_s = last_->interval_s;
    }
  }
  snapshot->health = health_;
  last_ = snapshot;
  return snapshot;
}

std::vector<ScopeResult> SnapshotBuilder::evaluate_scopes(const counts::Sample& sample,
                                                          const std::vector<counts::Place>& places) {
  if (plan_.per_cgroup) return evaluate_cgroups(places);
  std::vector<ScopeResult> scopes;
  scopes.push_back(scope_result({{"scope", plan_.whole_scope}}, plan_.whole_scope, sample));
  add_units(places, {}, "", scopes);
  return scopes;
}

void SnapshotBuilder::add_units(const std::vector<counts::Place>& places, const Labels& labels,
                                const std::string& report_prefix, std::vector<ScopeResult>& scopes) {
  if (plan_.view == aggregate::View::Global) return;
  aggregate::Request request;
  request.view = plan_.view;
  request.topology = plan_.topology;
  request.core_wide_events = plan_.core_wide_events;
  for (const aggregate::Unit& unit : aggregate::aggregate(places, request).units) {
    Labels unit_series = unit_labels(plan_.view, unit.label, plan_.topology);
    unit_series.insert(unit_series.end(), labels.begin(), labels.end());
    scopes.push_back(scope_result(std::move(unit_series), report_prefix + unit.label, unit.sample));
  }
}

// Each cgroup's CPUs added up, then split into the view's units.
std::vector<ScopeResult> SnapshotBuilder::evaluate_cgroups(const std::vector<counts::Place>& places) {
  std::vector<ScopeResult> scopes;
  for (const aggregate::CgroupPlaces& cgroup : aggregate::split_by_cgroup(places)) {
    const Labels labels{{"cgroup", cgroup.cgroup}};
    scopes.push_back(scope_result({{"scope", "cgroup"}, {"cgroup", cgroup.cgroup}}, cgroup.cgroup, cgroup.whole));
    add_units(cgroup.places, labels, cgroup.cgroup + " ", scopes);
  }
  return scopes;
}

ScopeResult SnapshotBuilder::scope_result(Labels labels, std::string report_scope, const counts::Sample& sample) {
  std::map<std::string, double, std::less<>>& totals = totals_[labels];
  for (const auto& [key, count] : sample.events) {
    if (key.group != 0) continue;  // a copy counted again in a rotating group: its own count is there too
    if (const auto scaled = count.scaled()) totals[key.event] += *scaled;
  }
  report::RunInfo run = run_;
  run.elapsed_s = sample.duration_s;
  const bool idle = !sample.any_enabled();
  std::vector<ScopeResult::Event> events;
  for (const auto& [key, count] : sample.events) {
    if (key.group != 0) continue;
    const auto total = totals.find(key.event);
    std::shared_ptr<const std::string>& name = event_names_[key.event];
    if (!name) name = std::make_shared<const std::string>(key.event);
    events.push_back(
        {name, total == totals.end() ? std::nullopt : std::optional(total->second), count.running_share()});
  }
  ScopeResult result{std::move(labels),
                     {std::move(report_scope), evaluator_.evaluate(sample), sample, std::move(run)},
                     std::move(events),
                     idle};
  return result;
}

void SnapshotStore::publish(std::shared_ptr<const Snapshot> snapshot) {
  const auto now = Clock::now();
  std::lock_guard lock(mutex_);
  latest_.swap(snapshot);
  published_ = now;
  // The previous snapshot, if no handler holds it, is freed after the lock is released.
}

std::shared_ptr<const Snapshot> SnapshotStore::latest() const {
  std::lock_guard lock(mutex_);
  return latest_;
}

void SnapshotStore::stop_counting() {
  std::lock_guard lock(mutex_);
  counting_ = false;
}

bool SnapshotStore::healthy(Clock::time_point now) const {
  std::lock_guard lock(mutex_);
  const Clock::time_point last = latest_ ? published_ : started_;
  return counting_ && now - last <= 3 * period_ + std::chrono::seconds(1);
}

}  // namespace topdown::serve
