// The import reader on arbitrary bytes: perf stat -x output (with -I, -A,
// --per-core) and counts files, read whole and per interval. Bad files must
// end in topdown::Error (ParseError "file:line: ...") with a one-line message
// that names the file; what is read must be numbers: finite counts of at
// least 0, finite durations and timestamps.
// `topdown import` as a whole, with a model, is import_report_fuzz.cpp.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "error_message.h"
#include "import/import.h"
#include "memory_file.h"

namespace {

using namespace topdown;

bool number(double value) { return std::isfinite(value) && value >= 0; }

void check(const import::Interval& interval, const import::FileInfo& info) {
  if (!number(interval.sample.duration_s)) __builtin_trap();
  if (interval.time_s && !std::isfinite(*interval.time_s)) __builtin_trap();
  for (const auto& [name, count] : interval.sample.events) {
    if (!number(count.value)) __builtin_trap();
    if (std::find(info.events.begin(), info.events.end(), name) == info.events.end()) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const fuzz::MemoryFile file(data, size);
  for (bool per_interval : {false, true}) {
    import::ReadOptions options;
    options.per_interval = per_interval;
    try {
      import::read_file(file.path(), options, check);
    } catch (const Error& error) {
      fuzz::check_refusal(error, file.path());
    }
  }
  return 0;
}
