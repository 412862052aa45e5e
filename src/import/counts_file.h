#pragma once
// Lines of a counts file (README.md): "EVENT VALUE", "# comment", blank
// lines, and run variables with the same syntax; private to import.
#include <string_view>

namespace topdown::import {

struct CountsLine {
  enum class Kind {
    Blank,
    Event,
    IntervalSeconds,
    SmtEnabled,
    EbsMode,
    PerfMetrics,
    OnlineCpus,
    Sockets,
    ChasPerSocket,
    CoresPerSocket
  } kind = Kind::Blank;
  std::string_view name;  // the event
  double value = 0;
};

// Whether `line` has the shape of a counts-file line with a value: two
// words, the second a number. Comments and blank lines do not count.
bool looks_like_counts_line(std::string_view line);

// Throws Error (without the file and line) saying what is wrong.
CountsLine parse_counts_line(std::string_view line);

}  // namespace topdown::import
