#include "collect/stop_signals.h"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>

#include "common/error.h"

namespace topdown::collect {
namespace {

std::atomic<pid_t> forward_target{0};
std::atomic<int> notify_fd{-1};
// NOLINTNEXTLINE(misc-redundant-expression): pid_t is int on Linux, but need not be.
static_assert(std::atomic<pid_t>::is_always_lock_free && std::atomic<int>::is_always_lock_free,
              "read in a signal handler");

// Each would otherwise kill topdown and leave the workload running without
// it: interrupt and terminate, a closed terminal (SIGHUP) or pipe (SIGPIPE,
// which a write of an interval's report raises when its reader is gone),
// quit and the user's signal.
constexpr std::array kStopSignals = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGUSR1};
std::array<struct sigaction, kStopSignals.size()> previous{};

void on_stop_signal(int signal, siginfo_t* info, void*) {
  const int saved_errno = errno;
  const pid_t target = forward_target.load();
  const bool sent_by_a_process = info == nullptr || info->si_code <= 0;  // SI_USER, SI_QUEUE, SI_TKILL
  if (target > 0 && sent_by_a_process) ::kill(target, signal);
  const auto byte = static_cast<unsigned char>(signal);
  if (const int fd = notify_fd.load(); fd >= 0) {
    [[maybe_unused]] const ssize_t ignored = ::write(fd, &byte, 1);  // a full pipe already says "stop"
  }
  errno = saved_errno;
}

}  // namespace

StopSignals::StopSignals(pid_t workload) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) {
    throw Error(std::string("cannot prepare for Ctrl-C: cannot create a pipe: ") + std::strerror(errno));
  }
  read_end_ = Fd(fds[0]);
  write_end_ = Fd(fds[1]);
  int expected = -1;
  if (!notify_fd.compare_exchange_strong(expected, write_end_.get())) {
    throw Error("internal: counting is already in progress in this process");
  }
  forward_target.store(workload);
  struct sigaction handler {};
  handler.sa_sigaction = on_stop_signal;
  handler.sa_flags = SA_RESTART | SA_SIGINFO;
  sigemptyset(&handler.sa_mask);
  for (size_t i = 0; i < kStopSignals.size(); ++i) {
    const int signal = kStopSignals[i];
    ::sigaction(signal, nullptr, &previous[i]);
    // SIGINT and SIGTERM are how topdown is stopped even as a background job
    // of a script (which ignores SIGINT); any other signal topdown was
    // started ignoring (nohup's SIGHUP) stays ignored, as in the workload.
    const bool always = signal == SIGINT || signal == SIGTERM;
    if (always || previous[i].sa_handler != SIG_IGN) ::sigaction(signal, &handler, nullptr);
  }
}

StopSignals::~StopSignals() {
  for (size_t i = 0; i < kStopSignals.size(); ++i) ::sigaction(kStopSignals[i], &previous[i], nullptr);
  forward_target.store(0);
  notify_fd.store(-1);
}

std::optional<int> StopSignals::take() {
  std::optional<int> last;
  unsigned char bytes[16];
  ssize_t got;
  while ((got = ::read(read_end_.get(), bytes, sizeof bytes)) > 0) last = bytes[got - 1];
  return last;
}

}  // namespace topdown::collect
