#pragma once
// What signals do to topdown outside counting (collect's StopSignals handles
// them while a workload is counted): a write to a closed pipe or past the
// file size limit fails like any write error instead of killing topdown, and
// a signal that ends topdown first removes the hidden temporary files of
// outputs not yet complete.
#include <csignal>
#include <string>

namespace topdown::cli {

// Once, at start. Signals topdown was started with ignored (nohup) stay
// ignored; the handlers installed are reset to the defaults in a workload
// when it execs.
void install_signal_handlers();

// `path` is a temporary file to remove if a signal ends topdown, until
// forget_temporary(path). Throws Error when too many are open at once.
void remove_on_signal(const std::string& path);
void forget_temporary(const std::string& path);

// While alive, the signals that end topdown wait: a temporary file created
// in its scope is registered with remove_on_signal before one can arrive.
class EndingSignalsHeld {
 public:
  EndingSignalsHeld();
  ~EndingSignalsHeld();
  EndingSignalsHeld(const EndingSignalsHeld&) = delete;
  EndingSignalsHeld& operator=(const EndingSignalsHeld&) = delete;

 private:
  sigset_t previous_{};
};

}  // namespace topdown::cli
