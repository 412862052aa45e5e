#pragma once
// Live sampling: the counter groups of a plan sampled with leader sampling
// (perf's `{a,b,c}:S`) on the command topdown starts, on running processes
// or on CPUs, streamed into topdown's data file (docs/record-format.md).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "collect/collect.h"
#include "perf/sampling.h"
#include "recording/recording.h"

namespace topdown::sampling {

struct Options {
  perf::SampleRate rate{1000, 0};  // per group leader, while the group runs
  bool include_kernel = false;     // user space only by default
  std::optional<collect::Identity> run_as;
  std::size_t ring_pages = 128;    // data pages of each CPU's ring (a power of two): 512 KiB
  perf::CallStacks call_stacks{};  // kernel_frames follows include_kernel
};

struct Result {
  int exit_code = 0;              // as collect::WorkloadResult's
  std::optional<int> signal;      // the signal that killed the workload
  std::optional<int> stopped_by;  // the stop signal (SIGINT, SIGTERM, ...) topdown received
  double elapsed_s = 0;
  uint64_t lost = 0;   // records the kernel dropped because a ring was full
  uint64_t bytes = 0;  // size of the data file
};

// Samples `groups` on `target` and streams what the rings hold into `path`
// as it goes, so that a killed recording leaves a file readable up to its
// last whole record. `header` says what the run is; its groups are filled
// in from `groups` and the rate. The command starts when the counters are
// open (enabled by its exec) and they follow its threads and children, one
// ring per CPU; -p follows every thread of the processes and what they
// start; CPUs sample everything on them. Before sampling, the mappings of
// the processes already running (-p, -a, -C) are written from
// /proc/PID/maps. Stop signals (SIGINT, SIGTERM, ...) end recording as they end collect's
// counting. Throws Error (or collect::CommandNotStarted) as collect does,
// and for a file that cannot be written.
Result record(const collect::Target& target, const std::vector<collect::CounterGroup>& groups, recording::Header header,
              const std::string& path, const Options& options);

}  // namespace topdown::sampling
