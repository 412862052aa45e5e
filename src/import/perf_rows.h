#pragma once
// Rows of `perf stat -x SEP` output; private to import. The fields, in order:
//   [timestamp (-I)] [CPU0 (-A) | S0-D0-C1 (--per-core etc.) cpus | comm-tid (--per-thread)]
//   value unit event run_time pct_running [variance] [metric value] [metric unit]
// Perf does not quote fields, so `cpu/event=0x3c,umask=0x0/` keeps its
// separators: they do not split inside a pmu/.../ term list.
#include <cstddef>
#include <optional>
#include <string_view>

#include "counts/counts.h"

namespace topdown::import {

struct PerfLayout {
  char separator = ',';
  bool has_time = false;
  // Cpu: "CPU3" (-A); Aggregate: "S0-D0-C1" and a CPU count (--per-core,
  // --per-socket, ...); Thread: "app-4242" (--per-thread).
  enum class Location { None, Cpu, Aggregate, Thread } location = Location::None;
  size_t fields = 0;  // fields of the first row, up to pct_running: every row has as many

  size_t value_field() const {
    return (has_time ? 1 : 0) + (location == Location::None ? 0 : location == Location::Aggregate ? 2 : 1);
  }
};

struct PerfRow {
  bool metric_only = false;   // a further metric of the previous row: no counter
  std::string_view time;      // -I timestamp as written, not checked (the reader reads it once an interval)
  std::string_view location;  // "CPU3", "S0-D0-C1", "app-4242"; empty without a location column
  std::string_view event;
  std::optional<counts::Count> count;  // nullopt: <not counted>, <not supported> or a run time of 0
};

// The layout of `line` when it is a perf stat -x row; nullopt otherwise.
std::optional<PerfLayout> detect_perf_layout(std::string_view line);

// Parses one row; throws Error (without the file and line) saying what is wrong.
PerfRow parse_perf_row(std::string_view line, const PerfLayout& layout);

}  // namespace topdown::import
