#include "serve/snapshot.h"

#include <cmath>
#include <exception>
#include <set>
#include <stdexcept>

#include "serve/cgroup_labels.h"

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

SnapshotBuilder::SnapshotBuilder(std::vector<CoreTypePart> parts, ScopePlan plan, std::chrono::milliseconds period)
    : parts_(std::move(parts)), plan_(std::move(plan)), period_(period) {}

SnapshotBuilder::SnapshotBuilder(const eval::Evaluator& evaluator, ScopePlan plan, std::string model,
                                 report::RunInfo run, std::chrono::milliseconds period)
    : SnapshotBuilder({CoreTypePart{&evaluator, std::move(model), std::move(run), {}, {}}}, std::move(plan), period) {}

std::shared_ptr<const Snapshot> SnapshotBuilder::add(double time_s, const counts::Sample& sample,
                                                     const std::vector<counts::Place>& places) {
  return add(time_s, {CoreTypeCounts{&sample, &places}});
}

std::shared_ptr<const Snapshot> SnapshotBuilder::add(double time_s, const std::vector<CoreTypeCounts>& counts) {
  auto snapshot = std::make_shared<Snapshot>();
  const double interval_s = counts.empty() ? 0 : counts.front().sample->duration_s;
  ++health_.intervals;
  health_.lost_intervals += periods_lost(interval_s, period_);
  try {
    if (counts.size() != parts_.size()) throw std::logic_error("one interval's counts per core type");
    for (size_t i = 0; i < parts_.size(); ++i) evaluate_scopes(parts_[i], counts[i], snapshot->scopes);
    drop_totals_of_scopes_gone(*snapshot);
    snapshot->time_s = time_s;
    snapshot->interval_s = interval_s;
  } catch (const std::exception& error) {
    ++health_.errors;
    health_.last_error = error.what();
    snapshot->scopes.clear();
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

void SnapshotBuilder::evaluate_scopes(const CoreTypePart& part, const CoreTypeCounts& counts,
                                      std::vector<ScopeResult>& scopes) {
  if (plan_.per_cgroup) {
    evaluate_cgroups(part, *counts.places, scopes);
    return;
  }
  scopes.push_back(scope_result(part, {{"scope", plan_.whole_scope}}, plan_.whole_scope, *counts.sample));
  add_units(part, *counts.places, {}, "", scopes);
}

void SnapshotBuilder::add_units(const CoreTypePart& part, const std::vector<counts::Place>& places,
                                const Labels& labels, const std::string& report_prefix,
                                std::vector<ScopeResult>& scopes) {
  if (plan_.view == aggregate::View::Global) return;
  aggregate::Request request;
  request.view = plan_.view;
  request.topology = plan_.topology;
  request.core_wide_events = part.core_wide_events;
  for (const aggregate::Unit& unit : aggregate::aggregate(places, request).units) {
    Labels unit_series = unit_labels(plan_.view, unit.label, plan_.topology);
    unit_series.insert(unit_series.end(), labels.begin(), labels.end());
    scopes.push_back(scope_result(part, std::move(unit_series), report_prefix + unit.label, unit.sample));
  }
}

// Each cgroup's CPUs added up, then split into the view's units.
void SnapshotBuilder::evaluate_cgroups(const CoreTypePart& part, const std::vector<counts::Place>& places,
                                       std::vector<ScopeResult>& scopes) {
  for (const aggregate::CgroupPlaces& cgroup : aggregate::split_by_cgroup(places)) {
    Labels labels{{"cgroup", cgroup.cgroup}};
    const Labels what = cgroup_labels(cgroup.cgroup);
    labels.insert(labels.end(), what.begin(), what.end());
    Labels whole{{"scope", "cgroup"}};
    whole.insert(whole.end(), labels.begin(), labels.end());
    scopes.push_back(scope_result(part, std::move(whole), cgroup.cgroup, cgroup.whole));
    add_units(part, cgroup.places, labels, cgroup.cgroup + " ", scopes);
  }
}

// The running totals of a scope that this interval no longer has (a cgroup
// removed, a thread ended) go with it, so that following cgroups that come
// and go for months holds only those there now.
void SnapshotBuilder::drop_totals_of_scopes_gone(const Snapshot& snapshot) {
  std::set<Labels> present;
  for (const ScopeResult& scope : snapshot.scopes) present.insert(scope.labels);
  std::erase_if(totals_, [&](const auto& entry) { return present.count(entry.first) == 0; });
}

ScopeResult SnapshotBuilder::scope_result(const CoreTypePart& part, Labels labels, std::string report_scope,
                                          const counts::Sample& sample) {
  if (!part.core_type.empty()) labels.emplace_back("core_type", part.core_type);
  std::map<std::string, double, std::less<>>& totals = totals_[labels];
  for (const auto& [key, count] : sample.events) {
    if (key.group != 0) continue;  // a copy counted again in a rotating group: its own count is there too
    if (const auto scaled = count.scaled()) totals[key.event] += *scaled;
  }
  report::RunInfo run = part.run;
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
  report::Report report{std::move(report_scope), part.evaluator->evaluate(sample), sample, std::move(run)};
  report.core_type = part.core_type;
  ScopeResult result{part.model, std::move(labels), std::move(report), std::move(events), idle};
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
