#include "import/perf_units.h"

#include <array>
#include <utility>

#include <fmt/format.h>

#include "common/error.h"
#include "import/text_fields.h"

namespace topdown::import {
namespace {

// The kernel counts time in nanoseconds (task-clock, cpu-clock: perf prints
// msec; duration_time, user_time, system_time: ns) and RAPL energy in units
// of 2^-32 J (its sysfs scale, which perf multiplies by to print Joules).
constexpr std::array<std::pair<std::string_view, double>, 8> kUnits = {{
    {"ns", 1.0},
    {"us", 1e3},
    {"usec", 1e3},
    {"ms", 1e6},
    {"msec", 1e6},
    {"s", 1e9},
    {"sec", 1e9},
    {"Joules", 4294967296.0},
}};

// Every MiB event of the memory controllers' PMUs (uncore_imc,
// uncore_imc_N, uncore_imc_free_running...: cas_count_read, data_reads,
// read, ...) counts 64-byte lines, scaled by 64 / 2^20; other PMUs' MiB
// (uncore_iio_free_running's 4-byte counts) stand for other sizes.
constexpr std::string_view kMemoryControllerPmu = "uncore_imc";
constexpr double kLinesPerMiB = 1048576.0 / 64;

}  // namespace

double kernel_counts_per(std::string_view unit, std::string_view event) {
  if (unit.empty()) return 1.0;
  for (const auto& [name, factor] : kUnits) {
    if (unit == name) return factor;
  }
  if (unit == "MiB") {
    if (event.starts_with(kMemoryControllerPmu)) return kLinesPerMiB;
    throw Error(fmt::format(
        "{} is in MiB, and how many bytes a count of it stands for is known only for the memory controller's "
        "events ({}*/.../): leave it out of the perf stat command, or count it with topdown stat",
        excerpt(event), kMemoryControllerPmu));
  }
  throw Error(fmt::format(
      "unit '{}' of {} cannot be turned back into the kernel's count: topdown reads counts without a unit, times "
      "(ns, usec, msec, sec), Joules and the memory controller's MiB; leave the event out of the perf stat command",
      excerpt(unit), excerpt(event)));
}

}  // namespace topdown::import
