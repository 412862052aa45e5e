#pragma once
// topdown's own stdout and stderr: what it writes there is a report (or a
// message about one), and a report that could not be written is a failure,
// not exit 0.
#include <string_view>

namespace topdown::cli {

// Like env(1) and timeout(1): a wrapper's own failure must not look like an
// exit status of the workload it runs.
constexpr int kTopdownFailed = 125;

// Keeps descriptors 0-2 taken when topdown was started with them closed
// (`>&-`): /dev/null opened read-only stands in, so the output files opened
// later never get those numbers (a report would go into the -o file through
// printf) and writes to the closed stream still fail, as they would have.
void reserve_standard_streams();

// Writes `text` to stdout (`list`, `describe`, `--help`), remembering why it
// failed, for the exit status.
void write_stdout(std::string_view text);

// `status`, or 125 when a write to stdout or stderr failed. A failed stdout
// is told on stderr in one line, unless stdout is gone (a closed pipe or
// descriptor: nobody is reading) or stderr failed too.
int status_after_streams(int status);

}  // namespace topdown::cli
