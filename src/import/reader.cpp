#include <cmath>
#include <unordered_map>

#include <fmt/format.h>

#include "common/error.h"
#include "import/counts_file.h"
#include "import/import.h"
#include "import/line_reader.h"
#include "import/perf_rows.h"
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
      throw error_here(fmt::format("neither perf stat -x output nor an 'EVENT VALUE' line: '{}'; see "
                                   "`topdown import` in README.md",
                                   excerpt(line)));
    }
    throw Error("import file " + path_ + " holds no counts (it is empty or all comments); expected perf stat -x "
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
    interval_.resize(info_.events.size());
    total_.resize(info_.events.size());
    return info_.events.size() - 1;
  }

  // Rows repeat in the same order every interval: the event of the same row
  // in the first interval is nearly always the one.
  size_t row_event_index(std::string_view name) {
    const size_t row = rows_in_interval_;
    if (row < first_interval_events_.size() && info_.events[first_interval_events_[row]] == name) {
      return first_interval_events_[row];
    }
    const size_t index = event_index(name);
    if (info_.intervals && info_.intervals_read == 0) first_interval_events_.push_back(index);
    return index;
  }

  void read_perf(std::string_view line, const PerfLayout& layout) {
    info_.format = Format::PerfStat;
    info_.separator = layout.separator;
    info_.intervals = layout.has_time;
    info_.per_cpu = layout.location != PerfLayout::Location::None;
    do {
      // perf ends every line: one without an end was cut off.
      if (!lines_.line_complete()) throw error_here("the last line has no end of line: the file is truncated");
      if (!skipped(line)) perf_row(line, layout);
    } while (lines_.next(line));
    if (info_.rows == 0) throw error_here("no counter rows, only further metrics");
    if (info_.intervals) {
      end_interval(/*at_end=*/true);
      if (options_.per_interval) return;
      handler_(Interval{interval_end_, sample_of(total_, interval_end_)}, info_);
    } else {
      total_.swap(interval_);
      handler_(Interval{std::nullopt, sample_of(total_, duration_time_ns_ / 1e9)}, info_);
    }
  }

  void perf_row(std::string_view line, const PerfLayout& layout) {
    const PerfRow row = parsed([&] { return parse_perf_row(line, layout); });
    if (row.metric_only) return;
    if (layout.has_time && row.time != interval_time_) {
      const double time = *parse_count(row.time);
      if (rows_in_interval_ > 0) {
        if (time < interval_end_) {
          throw error_here(fmt::format("timestamp {} s comes after {} s: the file joins different runs", row.time,
                                       interval_time_));
        }
        end_interval(/*at_end=*/false);
      }
      interval_time_.assign(row.time);
      interval_end_ = time;
    }
    const size_t index = row_event_index(row.event);
    ++rows_in_interval_;
    ++info_.rows;
    if (!row.count) return;
    interval_[index].add(*row.count);
    if (!layout.has_time && row.event == "duration_time") {
      duration_time_ns_ = std::max(duration_time_ns_, row.count->value);
    }
  }

  void end_interval(bool at_end) {
    if (info_.intervals_read == 0) {
      rows_per_interval_ = rows_in_interval_;
    } else if (rows_in_interval_ != rows_per_interval_) {
      const std::string what =
          at_end && rows_in_interval_ < rows_per_interval_
              ? fmt::format("the last interval ({} s) has {} of the {} counter rows of the others: the file is "
                            "truncated",
                            interval_time_, rows_in_interval_, rows_per_interval_)
              : fmt::format("the interval ending at {} s has {} counter rows, the first one {}: rows are missing "
                            "or the file joins different runs",
                            interval_time_, rows_in_interval_, rows_per_interval_);
      throw error_here(what);
    }
    if (options_.per_interval) {
      handler_(Interval{interval_end_, sample_of(interval_, interval_end_ - previous_end_)}, info_);
    } else {
      for (size_t i = 0; i < interval_.size(); ++i) {
        if (interval_[i].counted) total_[i].add(interval_[i].count);
      }
    }
    std::fill(interval_.begin(), interval_.end(), Slot{});
    previous_end_ = interval_end_;
    rows_in_interval_ = 0;
    ++info_.intervals_read;
  }

  void read_counts(std::string_view line) {
    info_.format = Format::CountsFile;
    std::optional<double> interval_s;
    auto set_once = [&](auto& variable, auto value, std::string_view name) {
      if (variable) throw error_here(std::string(name) + " is given twice; keep one line");
      variable = value;
    };
    do {
      const CountsLine parsed_line = parsed([&] { return parse_counts_line(line); });
      switch (parsed_line.kind) {
        case CountsLine::Kind::Blank:
          break;
        case CountsLine::Kind::Event:
          // Lines for one event add up, like perf's rows of several CPUs.
          total_[event_index(parsed_line.name)].add(counts::Count{parsed_line.value, 0, 0});
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
      }
    } while (lines_.next(line));
    if (info_.rows == 0) {
      throw Error("import file " + path_ + " has run variables but no 'EVENT VALUE' lines; add the counts");
    }
    // The counts file has no running times: every event ran the whole time.
    const uint64_t ns = interval_s ? static_cast<uint64_t>(std::llround(*interval_s * 1e9)) : 1;
    for (Slot& slot : total_) slot.count.time_enabled = slot.count.time_running = std::max<uint64_t>(ns, 1);
    handler_(Interval{std::nullopt, sample_of(total_, interval_s.value_or(0))}, info_);
  }

  counts::Sample sample_of(const std::vector<Slot>& slots, double duration_s) const {
    counts::Sample sample;
    for (size_t i = 0; i < slots.size(); ++i) {
      if (slots[i].counted) sample.events.emplace(info_.events[i], slots[i].count);
    }
    sample.duration_s = duration_s;
    return sample;
  }

  std::string path_;
  LineReader lines_;
  const ReadOptions& options_;
  const IntervalHandler& handler_;
  FileInfo info_;
  std::unordered_map<std::string, size_t, NameHash, std::equal_to<>> index_;
  std::vector<size_t> first_interval_events_;  // event index of each row of the first interval
  std::vector<Slot> interval_;
  std::vector<Slot> total_;
  std::string interval_time_;  // timestamp of the current interval, as written
  double interval_end_ = 0;
  double previous_end_ = 0;
  size_t rows_in_interval_ = 0;
  size_t rows_per_interval_ = 0;
  double duration_time_ns_ = 0;
};

}  // namespace

FileInfo read_file(const std::filesystem::path& path, const ReadOptions& options, const IntervalHandler& handler) {
  return FileReader(path, options, handler).read();
}

}  // namespace topdown::import
