#pragma once
// SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT and SIGUSR1 while counting: they
// end the count instead of killing topdown, so that what was counted is
// still reported and the workload is not left running. Private to the
// collect stage.
#include <sys/types.h>

#include <optional>

#include "collect/process.h"

namespace topdown::collect {

// Installs the handlers for its lifetime (one at a time) and restores the
// previous ones afterwards. A signal is passed on to the workload (pid > 0)
// when a process sent it to topdown (kill, timeout); a Ctrl-C at the terminal
// already reaches the workload, which shares topdown's process group, and is
// not sent twice. Each signal also makes fd() readable, to wake the
// collection loop.
class StopSignals {
 public:
  explicit StopSignals(pid_t workload);
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  ~StopSignals();

  int fd() const { return read_end_.get(); }
  // The last signal received since the previous call, if any.
  std::optional<int> take();

 private:
  Fd read_end_;
  Fd write_end_;
};

}  // namespace topdown::collect
