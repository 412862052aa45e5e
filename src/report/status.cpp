#include <fmt/format.h>

#include <cstring>

#include "report/report.h"

namespace topdown::report {

std::string status_of(const eval::NodeResult& node) {
  if (!node.value) return "n/a";
  if (node.unreliable) return "unreliable";
  if (node.out_of_range) return "out_of_range";
  if (node.approximate) return "approximate";
  if (node.multiplexed) return "multiplexed";
  return "ok";
}

std::string signal_name(int signal) {
  if (const char* abbreviation = ::sigabbrev_np(signal)) return std::string("SIG") + abbreviation;
  return fmt::format("signal {}", signal);
}

}  // namespace topdown::report
