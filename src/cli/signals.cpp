#include "cli/signals.h"

#include <pthread.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <csignal>
#include <cstring>

#include "common/error.h"

namespace topdown::cli {
namespace {

// Read by the signal handler: fixed storage, no allocation. A command has
// at most a few outputs open at once (-o, --html).
constexpr size_t kSlots = 8;
constexpr size_t kPathBytes = 4096;
struct Slot {
  std::atomic<bool> used{false};
  std::array<char, kPathBytes> path{};
};
std::array<Slot, kSlots> temporaries;
std::atomic<pid_t> owner{0};  // a forked child that has not exec'd yet leaves them be
constexpr std::array kEndingSignals{SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1};

void remove_temporaries_and_die(int signal) {
  if (::getpid() == owner.load()) {
    for (Slot& slot : temporaries) {
      if (slot.used.load()) ::unlink(slot.path.data());
    }
  }
  std::signal(signal, SIG_DFL);
  ::raise(signal);
}

void fail_the_write(int) {}  // the write returns EPIPE or EFBIG instead

void install(int signal, void (*handler)(int)) {
  struct sigaction action {};
  struct sigaction previous {};
  ::sigaction(signal, nullptr, &previous);
  if (previous.sa_handler == SIG_IGN) return;
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  ::sigaction(signal, &action, nullptr);
}

}  // namespace

void install_signal_handlers() {
  owner.store(::getpid());
  install(SIGPIPE, fail_the_write);
  install(SIGXFSZ, fail_the_write);
  for (const int signal : kEndingSignals) install(signal, remove_temporaries_and_die);
}

EndingSignalsHeld::EndingSignalsHeld() {
  sigset_t held;
  sigemptyset(&held);
  for (const int signal : kEndingSignals) sigaddset(&held, signal);
  ::pthread_sigmask(SIG_BLOCK, &held, &previous_);
}

EndingSignalsHeld::~EndingSignalsHeld() { ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }

void remove_on_signal(const std::string& path) {
  if (path.size() >= kPathBytes) throw Error("output path too long: " + path + "; choose a shorter one");
  for (Slot& slot : temporaries) {
    if (slot.used.load()) continue;
    std::memcpy(slot.path.data(), path.c_str(), path.size() + 1);
    slot.used.store(true);
    return;
  }
  throw Error("internal: more than 8 output files open at once");
}

void forget_temporary(const std::string& path) {
  for (Slot& slot : temporaries) {
    if (slot.used.load() && path == slot.path.data()) slot.used.store(false);
  }
}

}  // namespace topdown::cli
