#pragma once
// --cgroup-counting bpf|perf, of stat and serve: how the cgroups of -G and
// --cgroups-under are counted; left out, BPF where it can be.
#include <CLI/CLI.hpp>
#include <string>

#include "collect/cgroups.h"

namespace topdown::cli {

inline void add_cgroup_counting_option(CLI::App& command, collect::CgroupCounting& counting) {
  using collect::CgroupCounting;
  command
      .add_option_function<std::string>(
          "--cgroup-counting",
          [&counting](const std::string& way) { counting = way == "bpf" ? CgroupCounting::Bpf : CgroupCounting::Perf; },
          "Count cgroups with one counter set per CPU and a BPF program (bpf), or one per cgroup and CPU (perf); "
          "default: bpf where the kernel, privileges and build allow it")
      ->check(CLI::IsMember({"bpf", "perf"}));
}

}  // namespace topdown::cli
