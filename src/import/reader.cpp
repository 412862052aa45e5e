#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>

#include <fmt/format.h>

#include "common/error.h"
#include "import/counts_file.h"
#include "import/import.h"
#include "import/line_reader.h"
#include "import/perf_rows.h"
#include "import/retire_latency_rows.h"
#include "import/runs.h"
#include "import/text_fields.h"

namespace topdown::import {
namespace {

struct NameHash {
  using is_transparent = void;
  size_t operator()(std::string_view name) const { return std::hash<std::string_view>{}(name); }
};

// One event's counts in an interval or in the whole file.
struct Slot {
  counts::Count count;
  bool counted = false;  // at least one row had a value (not <not counted>)

  void add(const counts::Count& more) {
    count.value += more.value;
    count.time_enabled += more.time_enabled;
    count.time_running += more.time_running;
    counted = true;
  }

  // Another row of the same event and place in one interval: the same count
  // taken by another counter group (perf -e EVENT,EVENT, or groups that each
  // need it). Adding the rows would count it twice; pooled, the count is the
  // rows' values over their running times together, within one enabled time.
  void pool(const counts::Count& more) {
    const uint64_t enabled = std::max(count.time_enabled, more.time_enabled);
    const double running = static_cast<double>(count.time_running) + static_cast<double>(more.time_running);
    double value = count.value + more.value;
    uint64_t kept_running = count.time_running + more.time_running;
    if (running > static_cast<double>(enabled)) {
      // The groups ran side by side: the pooled rate over the enabled time.
      value *= static_cast<double>(enabled) / running;
      kept_running = enabled;
    }
    count = {value, enabled, kept_running};
  }
};

// The counts of one value of the location column ("CPU3"); one location
// with an empty label when the file has none.
struct Location {
  std::string label;
  std::vector<Slot> interval;  // by event index
  std::vector<Slot> total;
  std::vector<Slot> run;  // the current perf stat run's (files without -I)
};

struct RowKey {
  size_t location = 0;
  size_t event = 0;
};

class FileReader {
 public:
  FileReader(const std::filesystem::path& path, const ReadOptions& options, const IntervalHandler& handler)
      : path_(path.string()), lines_(path), options_(options), handler_(handler) {}

  FileInfo read() {
    std::string_view line;
    while (lines_.next(line)) {
      if (skipped(line)) continue;
      if (looks_like_counts_line(line)) {
        read_counts(line);
        return info_;
      }
      if (const auto layout = detect_perf_layout(line)) {
        read_perf(line, *layout);
        return info_;
      }
      throw error_here(
          fmt::format("neither perf stat -x output nor an 'EVENT VALUE' line: '{}'; see "
                      "`topdown import` in README.md",
                      excerpt(line)));
    }
    throw Error("import file " + path_ +
                " holds no counts (it is empty or all comments); expected perf stat -x "
                "output or EVENT VALUE lines");
  }

 private:
  static bool skipped(std::string_view line) {
    const std::string_view content = trim(line);
    return content.empty() || content[0] == '#';
  }

  ParseError error_here(const std::string& what) const {
    return ParseError(SourceLocation{path_, static_cast<int>(lines_.line_number()), 0}, what);
  }

  // perf and topdown end every line: one without an end was cut off, and
  // its value may be too.
  void refuse_a_cut_line() const {
    if (!lines_.line_complete()) throw error_here("the last line has no end of line: the file is truncated");
  }

  template <typename Parse>
  auto parsed(Parse&& parse) const {
    try {
      return parse();
    } catch (const ParseError&) {
      throw;
    } catch (const Error& error) {
      throw error_here(error.what());
    }
  }

  size_t event_index(std::string_view name) {
    auto found = index_.find(name);
    if (found != index_.end()) return found->second;
    info_.events.emplace_back(name);
    index_.emplace(info_.events.back(), info_.events.size() - 1);
    return info_.events.size() - 1;
  }

  size_t location_index(std::string_view label) {
    auto found = location_index_.find(label);
    if (found != location_index_.end()) return found->second;
    locations_.push_back(Location{std::string(label), {}, {}, {}});
    location_index_.emplace(locations_.back().label, locations_.size() - 1);
    return locations_.size() - 1;
  }

  // Rows repeat in the same order every interval: the location and event of
  // the same row in the first interval are nearly always the ones.
  RowKey row_key(std::string_view location, std::string_view event) {
    const size_t row = rows_in_interval_;
    if (row < first_interval_rows_.size()) {
      const RowKey& known = first_interval_rows_[row];
      if (info_.events[known.event] == event && locations_[known.location].label == location) return known;
    }
    const RowKey key{location_index(location), event_index(event)};
    if (info_.intervals && info_.intervals_read == 0) first_interval_rows_.push_back(key);
    return key;
  }

  void note_repeated(std::string_view event) {
    auto& repeated = info_.repeated_events;
    if (std::find(repeated.begin(), repeated.end(), event) == repeated.end()) repeated.emplace_back(event);
  }

  Slot& slot(size_t location, size_t event, std::vector<Slot> Location::*which) {
    std::vector<Slot>& slots = locations_[location].*which;
    if (slots.size() <= event) slots.resize(info_.events.size());
    return slots[event];
  }

  void read_perf(std::string_view line, const PerfLayout& layout) {
    info_.format = Format::PerfStat;
    info_.separator = layout.separator;
    info_.intervals = layout.has_time;
    info_.per_cpu = layout.location != PerfLayout::Location::None;
    do {
      refuse_a_cut_line();
      if (!layout.has_time && starts_run(line)) end_run();
      if (!skipped(line)) perf_row(line, layout);
    } while (lines_.next(line));
    if (info_.rows == 0) throw error_here("no counter rows, only further metrics");
    if (info_.intervals) {
      end_interval(/*at_end=*/true);
      if (options_.per_interval) return;
      handler_(interval_of(interval_end_, &Location::total, interval_end_), info_);
    } else {
      end_run();
      handler_(whole_of_runs(), info_);
    }
  }

  // perf starts each run's output with "# started on DATE".
  static bool starts_run(std::string_view line) { return trim(line).substr(0, 12) == "# started on"; }

  void end_run() {
    if (rows_in_run_ == 0) return;
    runs_.push_back(interval_of(std::nullopt, &Location::run, 0).sample);
    for (Location& location : locations_) std::fill(location.run.begin(), location.run.end(), Slot{});
    if (run_duration_ns_ > 0) run_durations_ns_.push_back(run_duration_ns_);
    run_duration_ns_ = 0;
    rows_in_run_ = 0;
  }

  // The whole of a file without intervals: with several runs, every event at
  // its rate over the runs and each run's own counts (import/runs.h); the
  // places' counts are still pooled over the runs.
  Interval whole_of_runs() {
    info_.runs = std::max<size_t>(runs_.size(), 1);
    if (runs_.size() <= 1) return interval_of(std::nullopt, &Location::interval, duration_time_ns_ / 1e9);
    // The runs' mean length, when each says how long it was.
    const double duration_s = run_durations_ns_.size() == runs_.size()
                                  ? std::accumulate(run_durations_ns_.begin(), run_durations_ns_.end(), 0.0) / 1e9 /
                                        static_cast<double>(runs_.size())
                                  : 0;
    Interval whole = interval_of(std::nullopt, &Location::interval, duration_s);
    RunCounts rescaled = rescale_runs(runs_, duration_s);
    whole.sample = std::move(rescaled.rates);
    whole.runs = std::move(rescaled.runs);
    return whole;
  }

  void perf_row(std::string_view line, const PerfLayout& layout) {
    const PerfRow row = parsed([&] { return parse_perf_row(line, layout); });
    if (row.metric_only) return;
    if (layout.has_time && (row.time != interval_time_ || row.time.empty())) {
      const auto parsed_time = parse_count(row.time);
      if (!parsed_time) throw error_here(fmt::format("timestamp '{}' is not a number", excerpt(row.time)));
      const double time = *parsed_time;
      if (rows_in_interval_ > 0) {
        if (time < interval_end_) {
          throw error_here(
              fmt::format("timestamp {} s comes after {} s: the file joins different runs", row.time, interval_time_));
        }
        end_interval(/*at_end=*/false);
      }
      interval_time_.assign(row.time);
      interval_end_ = time;
    }
    if (const auto event = retire_latency_event(row.event)) {
      if (row.count) retire_latency_rows_.add(*event, row.count->value, info_.retire_latencies);
      return;
    }
    const RowKey key = row_key(row.location, row.event);
    ++rows_in_interval_;
    ++rows_in_run_;
    ++info_.rows;
    if (!row.count) return;
    Slot& counts = slot(key.location, key.event, &Location::interval);
    // Within one run (or interval) a second row is the same count from another group.
    bool repeated = counts.counted;
    if (!layout.has_time) {
      Slot& in_run = slot(key.location, key.event, &Location::run);
      repeated = in_run.counted;
      repeated ? in_run.pool(*row.count) : in_run.add(*row.count);
    }
    counts.counted ? counts.pool(*row.count) : counts.add(*row.count);
    if (repeated) note_repeated(row.event);
    if (!layout.has_time && row.event == "duration_time") {
      duration_time_ns_ = std::max(duration_time_ns_, row.count->value);
      run_duration_ns_ = std::max(run_duration_ns_, row.count->value);
    }
  }

  void end_interval(bool at_end) {
    if (info_.intervals_read == 0) {
      rows_per_interval_ = rows_in_interval_;
    } else if (rows_in_interval_ != rows_per_interval_) {
      const std::string what =
          at_end && rows_in_interval_ < rows_per_interval_
              ? fmt::format(
                    "the last interval ({} s) has {} of the {} counter rows of the others: the file is "
                    "truncated",
                    interval_time_, rows_in_interval_, rows_per_interval_)
              : fmt::format(
                    "the interval ending at {} s has {} counter rows, the first one {}: rows are missing "
                    "or the file joins different runs",
                    interval_time_, rows_in_interval_, rows_per_interval_);
      throw error_here(what);
    }
    if (options_.per_interval) {
      fill(interval_, interval_entries_, interval_end_, &Location::interval, interval_end_ - previous_end_);
      handler_(interval_, info_);
    } else {
      // Intervals of one location are one counter's successive deltas: they add up as they are.
      for (Location& location : locations_) {
        location.total.resize(location.interval.size());
        for (size_t i = 0; i < location.interval.size(); ++i) {
          if (location.interval[i].counted) location.total[i].add(location.interval[i].count);
        }
      }
    }
    for (Location& location : locations_) std::fill(location.interval.begin(), location.interval.end(), Slot{});
    previous_end_ = interval_end_;
    rows_in_interval_ = 0;
    ++info_.intervals_read;
  }

  void read_counts(std::string_view line) {
    info_.format = Format::CountsFile;
    location_index("");
    std::optional<double> interval_s;
    auto set_once = [&](auto& variable, auto value, std::string_view name) {
      if (variable) throw error_here(std::string(name) + " is given twice; keep one line");
      variable = value;
    };
    do {
      refuse_a_cut_line();
      const CountsLine parsed_line = parsed([&] { return parse_counts_line(line); });
      switch (parsed_line.kind) {
        case CountsLine::Kind::Blank:
          break;
        case CountsLine::Kind::Event:
          if (const auto event = retire_latency_event(parsed_line.name)) {
            retire_latency_rows_.add(*event, parsed_line.value, info_.retire_latencies);
            break;
          }
          // Lines for one event add up, like perf's rows of several CPUs.
          slot(0, event_index(parsed_line.name), &Location::total).add(counts::Count{parsed_line.value, 0, 0});
          ++info_.rows;
          break;
        case CountsLine::Kind::IntervalSeconds:
          set_once(interval_s, parsed_line.value, "interval-s");
          break;
        case CountsLine::Kind::SmtEnabled:
          set_once(info_.smt_enabled, parsed_line.value != 0, "smt_enabled");
          break;
        case CountsLine::Kind::EbsMode:
          set_once(info_.ebs_mode, parsed_line.value != 0, "ebs_mode");
          break;
        case CountsLine::Kind::PerfMetrics:
          set_once(info_.perf_metrics, parsed_line.value != 0, "perf_metrics");
          break;
        case CountsLine::Kind::OnlineCpus:
          set_once(info_.online_cpus, static_cast<int>(parsed_line.value), "num_cpus_online");
          break;
        case CountsLine::Kind::Sockets:
          set_once(info_.sockets, static_cast<int>(parsed_line.value), "socket_count");
          break;
        case CountsLine::Kind::ChasPerSocket:
          set_once(info_.chas_per_socket, static_cast<int>(parsed_line.value), "chas_per_socket");
          break;
        case CountsLine::Kind::CoresPerSocket:
          set_once(info_.cores_per_socket, static_cast<int>(parsed_line.value), "cores_per_socket");
          break;
      }
    } while (lines_.next(line));
    if (info_.rows == 0) {
      throw Error("import file " + path_ + " has run variables but no 'EVENT VALUE' lines; add the counts");
    }
    // The counts file has no running times: every event ran the whole time.
    const uint64_t ns = interval_s ? static_cast<uint64_t>(std::llround(*interval_s * 1e9)) : 1;
    for (Slot& counted : locations_[0].total) {
      counted.count.time_enabled = counted.count.time_running = std::max<uint64_t>(ns, 1);
    }
    handler_(interval_of(std::nullopt, &Location::total, interval_s.value_or(0)), info_);
  }

  counts::Sample sample_of(const std::vector<Slot>& slots, double duration_s) const {
    counts::Sample sample;
    for (size_t i = 0; i < slots.size(); ++i) {
      if (slots[i].counted) sample.events.emplace(info_.events[i], slots[i].count);
    }
    sample.duration_s = duration_s;
    return sample;
  }

  // Each event's sum over locations, each location scaled by its own times
  // before adding as perf does; nullopt where no location counted it.
  void sum_locations(std::vector<Slot> Location::*which) {
    summed_.assign(info_.events.size(), std::nullopt);
    for (const Location& location : locations_) {
      const std::vector<Slot>& slots = location.*which;
      for (size_t i = 0; i < slots.size(); ++i) {
        if (!slots[i].counted) continue;
        if (!summed_[i]) summed_[i].emplace();
        counts::add_scaled(*summed_[i], slots[i].count);
      }
    }
  }

  // `interval` with the sum over locations and each location's counts when
  // they are asked for. `entries` (by event index, nullptr where absent)
  // point into its sample from the last call: while the same events are
  // counted, as in every interval of a file but rare ones, only their counts
  // are written and the sample's map is not built again.
  void fill(Interval& interval, std::vector<counts::Count*>& entries, std::optional<double> time_s,
            std::vector<Slot> Location::*which, double duration_s) {
    sum_locations(which);
    bool same_events = entries.size() == summed_.size();
    for (size_t i = 0; same_events && i < summed_.size(); ++i)
      same_events = (entries[i] != nullptr) == summed_[i].has_value();
    if (same_events) {
      for (size_t i = 0; i < summed_.size(); ++i) {
        if (entries[i]) *entries[i] = *summed_[i];
      }
    } else {
      interval.sample.events.clear();
      entries.assign(summed_.size(), nullptr);
      for (size_t i = 0; i < summed_.size(); ++i) {
        if (summed_[i]) entries[i] = &interval.sample.events.emplace(info_.events[i], *summed_[i]).first->second;
      }
    }
    interval.time_s = time_s;
    interval.sample.duration_s = duration_s;
    interval.places.clear();
    if (options_.per_place && info_.per_cpu) {
      for (const Location& location : locations_) {
        interval.places.push_back(counts::Place{location.label, sample_of(location.*which, duration_s)});
      }
    }
  }

  Interval interval_of(std::optional<double> time_s, std::vector<Slot> Location::*which, double duration_s) {
    Interval interval;
    std::vector<counts::Count*> entries;
    fill(interval, entries, time_s, which, duration_s);
    return interval;
  }

  std::string path_;
  LineReader lines_;
  const ReadOptions& options_;
  const IntervalHandler& handler_;
  FileInfo info_;
  std::unordered_map<std::string, size_t, NameHash, std::equal_to<>> index_;
  std::vector<Location> locations_;
  RetireLatencyRows retire_latency_rows_;
  std::unordered_map<std::string, size_t, NameHash, std::equal_to<>> location_index_;
  std::vector<RowKey> first_interval_rows_;  // of each row of the first interval
  std::string interval_time_;                // timestamp of the current interval, as written
  double interval_end_ = 0;
  double previous_end_ = 0;
  size_t rows_in_interval_ = 0;
  size_t rows_per_interval_ = 0;
  double duration_time_ns_ = 0;
  size_t rows_in_run_ = 0;
  std::vector<counts::Sample> runs_;  // each run's counts, by the file's names
  double run_duration_ns_ = 0;        // the current run's duration_time
  std::vector<double> run_durations_ns_;
  std::vector<std::optional<counts::Count>> summed_;  // by event index (sum_locations)
  Interval interval_;                                 // the latest of ReadOptions::per_interval, reused
  std::vector<counts::Count*> interval_entries_;      // into interval_.sample (fill)
};

}  // namespace

FileInfo read_file(const std::filesystem::path& path, const ReadOptions& options, const IntervalHandler& handler) {
  return FileReader(path, options, handler).read();
}

}  // namespace topdown::import
