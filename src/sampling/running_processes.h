#pragma once
// What perf would have recorded of the processes that were already running
// when sampling started: their names and executable mappings, from /proc.
// Private to the sampling stage.
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "recording/recording.h"

namespace topdown::sampling {

// The executable file mappings of one /proc/PID/maps text ("start-end perms
// offset dev inode path" lines), for process `pid`. Pure, for tests.
std::vector<recording::Mapping> executable_mappings(pid_t pid, std::string_view maps);

// Every process running now (/proc/[0-9]*), for -a and -C.
std::vector<pid_t> running_processes();

// A COMM and an MMAP2 record per executable mapping of `pid`, in the
// data file's layout for `sample_type`, at time 0 (before any sample).
// Empty when the process has gone.
std::string process_records(pid_t pid, uint64_t sample_type);

}  // namespace topdown::sampling
