#include "import/perf_rows.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "common/error.h"
#include "import/perf_units.h"
#include "import/text_fields.h"

namespace topdown::import {
namespace {

// Up to the timestamp, two location fields, value, unit, event, run time and
// percentage, plus one for whatever follows.
constexpr size_t kMaxFields = 9;
using Fields = std::array<std::string_view, kMaxFields>;

// Splits at `separator`, except inside pmu/.../ term lists; the last field
// keeps the rest of the line.
size_t split(std::string_view line, char separator, Fields& fields) {
  size_t count = 0;
  size_t start = 0;
  if (line.find('/') == std::string_view::npos) {  // no term list: each separator splits (memchr, not a loop)
    for (size_t at = line.find(separator); at != std::string_view::npos && count + 1 < kMaxFields;
         at = line.find(separator, start)) {
      fields[count++] = line.substr(start, at - start);
      start = at + 1;
    }
    fields[count++] = line.substr(start);
    return count;
  }
  bool inside_terms = false;
  for (size_t i = 0; i < line.size() && count + 1 < kMaxFields; ++i) {
    const char c = line[i];
    if (c == '/') {
      inside_terms = !inside_terms;
    } else if (c == separator && !inside_terms) {
      fields[count++] = line.substr(start, i - start);
      start = i + 1;
    }
  }
  fields[count++] = line.substr(start);
  return count;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }

bool not_counted(std::string_view value) { return value == "<not counted>" || value == "<not supported>"; }

// Detection accepts any number, so that a bad value (-5, nan) is reported as
// such rather than as an unknown format.
bool is_value(std::string_view field) {
  field = trim(field);
  return not_counted(field) || looks_like_number(field);
}

// "CPU12" (-A).
bool is_cpu_id(std::string_view field) {
  constexpr std::string_view kPrefix = "CPU";
  return field.size() > kPrefix.size() && field.substr(0, kPrefix.size()) == kPrefix &&
         std::all_of(field.begin() + kPrefix.size(), field.end(), is_digit);
}

// "S0", "S0-D0", "S0-D0-C1", "N0", "S0-D0-L3-ID0" (--per-socket/die/core/node/cache):
// capital letters then digits, joined by '-', starting with a socket or node.
bool is_aggregate_id(std::string_view field) {
  if (field.empty() || (field[0] != 'S' && field[0] != 'N')) return false;
  size_t i = 0;
  while (true) {
    const size_t letters = i;
    while (i < field.size() && is_upper(field[i])) ++i;
    const size_t digits = i;
    while (i < field.size() && is_digit(field[i])) ++i;
    if (i == digits || digits == letters) return false;
    if (i == field.size()) return true;
    if (field[i++] != '-') return false;
  }
}

// "my-app-4242" (--per-thread): the command, '-' and the thread id.
bool is_thread_id(std::string_view field) {
  const size_t dash = field.rfind('-');
  return dash != std::string_view::npos && dash > 0 && dash + 1 < field.size() &&
         std::all_of(field.begin() + static_cast<std::ptrdiff_t>(dash) + 1, field.end(), is_digit) &&
         !is_aggregate_id(field);
}

bool is_cpu_count(std::string_view field) {
  field = trim(field);
  return !field.empty() && std::all_of(field.begin(), field.end(), is_digit);
}

// The first field is a number, "<not counted>" or a location: the character
// after it is the separator.
std::optional<char> separator_of(std::string_view line) {
  for (char c : line) {
    const bool in_first_field = is_digit(c) || (c >= 'a' && c <= 'z') || is_upper(c) || c == '.' || c == '<' ||
                                c == '>' || c == ' ' || c == '-';
    if (in_first_field) continue;
    if (c == '/' || c == '#' || static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) {
      return std::nullopt;
    }
    return c;
  }
  return std::nullopt;
}

// Three years of one CPU: longer run times are not perf's, and the sums of
// many rows must stay within 64 bits.
constexpr double kMaxNanoseconds = 1e17;

uint64_t nanoseconds(double value) { return static_cast<uint64_t>(std::llround(std::min(value, kMaxNanoseconds))); }

}  // namespace

std::optional<PerfLayout> detect_perf_layout(std::string_view line) {
  const auto separator = separator_of(line);
  if (!separator) return std::nullopt;
  PerfLayout layout;
  layout.separator = *separator;
  Fields fields;
  const size_t count = split(line, layout.separator, fields);
  size_t at = 0;
  if (count > 1 && parse_count(trim(fields[0])) &&
      (is_value(fields[1]) || is_cpu_id(trim(fields[1])) || is_aggregate_id(trim(fields[1])) ||
       is_thread_id(trim(fields[1])))) {
    layout.has_time = true;
    at = 1;
  }
  if (at < count && is_cpu_id(trim(fields[at]))) {
    layout.location = PerfLayout::Location::Cpu;
  } else if (at + 1 < count && is_aggregate_id(trim(fields[at])) && is_cpu_count(fields[at + 1])) {
    layout.location = PerfLayout::Location::Aggregate;
  } else if (at + 1 < count && is_thread_id(trim(fields[at])) && is_value(fields[at + 1])) {
    layout.location = PerfLayout::Location::Thread;
  }
  const size_t value = layout.value_field();
  if (count < value + 3 || !is_value(fields[value]) || trim(fields[value + 2]).empty()) return std::nullopt;
  layout.fields = std::min(count, value + 5);
  return layout;
}

PerfRow parse_perf_row(std::string_view line, const PerfLayout& layout) {
  Fields fields;
  const size_t count = split(line, layout.separator, fields);
  const size_t value_at = layout.value_field();
  PerfRow row;
  if (count > value_at + 2 && trim(fields[value_at]).empty() && trim(fields[value_at + 2]).empty()) {
    row.metric_only = true;
    return row;
  }
  if (count < layout.fields) {
    throw Error(fmt::format("expected {} fields separated by '{}' like the first row, found {} in '{}'", layout.fields,
                            layout.separator, count, excerpt(line)));
  }
  if (layout.has_time) row.time = trim(fields[0]);
  const size_t location_at = layout.has_time ? 1 : 0;
  const std::string_view location = trim(fields[location_at]);
  if (layout.location == PerfLayout::Location::Cpu && !is_cpu_id(location)) {
    throw Error(fmt::format("expected a CPU column like CPU0, found '{}'", excerpt(location)));
  }
  if (layout.location == PerfLayout::Location::Aggregate &&
      (!is_aggregate_id(location) || !is_cpu_count(fields[location_at + 1]))) {
    throw Error(
        fmt::format("expected a core or socket column like S0-D0-C1 and a CPU count, found '{}'", excerpt(location)));
  }
  if (layout.location == PerfLayout::Location::Thread && !is_thread_id(location)) {
    throw Error(
        fmt::format("expected a thread column like app-4242 (perf --per-thread), found '{}'", excerpt(location)));
  }
  if (layout.location != PerfLayout::Location::None) row.location = location;
  row.event = trim(fields[value_at + 2]);
  if (row.event.empty()) throw Error(fmt::format("no event name in '{}'", excerpt(line)));
  // perf stat -G and --for-each-cgroup put the cgroup's path after the
  // event: the '/' of a path also looks like a pmu/.../ term list to split().
  if (value_at + 3 < count && trim(fields[value_at + 3]).substr(0, 1) == "/") {
    const std::string_view field = trim(fields[value_at + 3]);
    throw Error(fmt::format(
        "cgroup '{}' after {}: rows of perf stat -G or --for-each-cgroup are not read (each cgroup is a whole of its "
        "own); count the cgroups live with topdown stat -G, or import a perf stat run without cgroups",
        excerpt(field.substr(0, field.find(layout.separator))), excerpt(row.event)));
  }
  const std::string_view value = trim(fields[value_at]);
  if (not_counted(value)) return row;
  const auto counted = parse_count(value);
  if (!counted) {
    throw Error(fmt::format("counter value '{}' of {} is not a number, <not counted> or <not supported>",
                            excerpt(value), excerpt(row.event)));
  }
  auto number_at = [&](size_t index, std::string_view what) -> std::optional<double> {
    if (index >= count || trim(fields[index]).empty()) return std::nullopt;
    const auto number = parse_count(trim(fields[index]));
    if (!number) {
      throw Error(fmt::format("{} '{}' of {} is not a number", what, excerpt(trim(fields[index])), excerpt(row.event)));
    }
    return number;
  };
  const auto run_time = number_at(value_at + 3, "run time");
  if (run_time && *run_time > kMaxNanoseconds) {
    throw Error(fmt::format("run time '{}' of {} is more than 3 years in nanoseconds: not a perf run time",
                            excerpt(trim(fields[value_at + 3])), excerpt(row.event)));
  }
  const auto percent = number_at(value_at + 4, "running percentage");
  // A counter that never ran counted nothing, whatever value the row shows:
  // missing, like <not counted>, never a count over no time.
  if (run_time && *run_time < 1) return row;
  counts::Count& result = row.count.emplace();
  result.value = *counted * kernel_counts_per(trim(fields[value_at + 1]), row.event);
  if (run_time) {
    // perf gives the time on the counter and its share of the enabled time.
    result.time_running = nanoseconds(*run_time);
    result.time_enabled = percent && *percent > 0
                              ? std::max(result.time_running, nanoseconds(*run_time * 100 / *percent))
                              : result.time_running;
  } else {
    // No running time given: counted the whole time, as far as anyone knows.
    result.time_running = result.time_enabled = 1;
  }
  return row;
}

}  // namespace topdown::import
