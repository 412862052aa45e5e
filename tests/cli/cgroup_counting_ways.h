#pragma once
// The two ways cgroups are counted (--cgroup-counting): tests of -G and
// --cgroups-under run under each, and skip the BPF way with the reason
// topdown gives where it cannot load.
#include <optional>
#include <string>

#include "run_command.h"

namespace topdown::testing {

inline const std::string kCgroupCountingWays[] = {"perf", "bpf"};

// topdown's one-line refusal of `way` on this machine, or nullopt.
inline std::optional<std::string> cgroup_counting_refused(const std::string& way) {
  const CommandResult r = run_command(std::string(TOPDOWN_BIN) + " stat --model " + std::string(TOPDOWN_SOURCE_DIR) +
                                      "/tests/data/software.model --cgroup-counting " + way + " -G / -- true");
  if (r.exit_code == 0) return std::nullopt;
  return r.err;
}

}  // namespace topdown::testing
