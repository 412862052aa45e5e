#pragma once
// Processes that collection counts or waits for: the workload topdown starts
// and running processes it attaches to (-p). Private to the collect stage.
#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "collect/run_as.h"
#include "perf/fd.h"

namespace topdown::collect {

using perf::Fd;  // pipes, timers and pidfds too

// A pidfd: readable (poll) once the process has exited. Throws Error naming
// `pid` when the process does not exist.
Fd watch_process(pid_t pid);

// The threads of a running process (/proc/PID/task), the process itself
// first. Throws Error naming `pid` when there is no such process.
std::vector<pid_t> threads_of(pid_t pid);

// A thread's command name (/proc/TID/comm), as perf --per-thread labels it;
// empty when the thread has gone.
std::string command_of(pid_t tid);

// The command topdown runs: forked at once, it waits until release() lets it
// exec (no shell), so that counters can be opened on it first. Until it is
// reaped, giving up on it (an exception) kills and reaps it, so no zombie or
// stray process is left.
class Workload {
 public:
  // `run_as`: the identity the child takes before its exec (run_as.h).
  Workload(const std::vector<std::string>& argv, const std::optional<Identity>& run_as);
  Workload(const Workload&) = delete;
  Workload& operator=(const Workload&) = delete;
  ~Workload();

  pid_t pid() const { return pid_; }
  // Readable once the child has exited. It stays a zombie until reap(), so
  // its pid cannot be reused while signals may still be forwarded to it.
  int exit_fd() const { return exited_.get(); }

  // Lets the child exec. Throws CommandNotStarted when the exec failed.
  void release();
  // Waits for the child and returns its wait status.
  int reap();

 private:
  std::string command_;
  Fd release_write_;
  Fd exec_error_read_;
  pid_t pid_ = 0;
  Fd exited_;
};

}  // namespace topdown::collect
