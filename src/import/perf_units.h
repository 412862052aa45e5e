#pragma once
// The unit column of `perf stat -x` rows; private to import. perf prints some
// events' counts scaled to a unit (task-clock in msec, RAPL energy in Joules,
// memory-controller traffic in MiB), while the models' formulas, like live
// counting, read the kernel's own count (nanoseconds, 2^-32 J, 64-byte
// lines).
#include <string_view>

namespace topdown::import {

// What a value perf printed in `unit` for `event` is multiplied by to give
// the kernel's count. Throws Error (without the file and line) naming the
// unit and the event when topdown cannot tell.
double kernel_counts_per(std::string_view unit, std::string_view event);

}  // namespace topdown::import
