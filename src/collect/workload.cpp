#include <fcntl.h>
#include <fmt/format.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fstream>
#include <utility>

#include "collect/collect.h"
#include "common/error.h"

namespace topdown::collect {
namespace {

const std::filesystem::path kSysfsDevices = "/sys/bus/event_source/devices";

class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    reset();
    fd_ = std::exchange(other.fd_, -1);
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }

  int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

struct Pipe {
  Fd read_end;
  Fd write_end;
};

Pipe make_pipe(const std::string& command) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    throw Error(fmt::format("cannot start '{}': cannot create a pipe: {}", command, std::strerror(errno)));
  }
  return {Fd(fds[0]), Fd(fds[1])};
}

// The forked workload until it is reaped. Giving up on it early (an
// exception) kills and reaps it, so no zombie or stray process is left.
class Child {
 public:
  explicit Child(pid_t pid) : pid_(pid) {}
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      reap();
    }
  }

  pid_t pid() const { return pid_; }

  // Blocks until the child has exited but leaves it a zombie, so its pid
  // cannot be reused while signals may still be forwarded to it.
  void wait_for_exit() const {
    siginfo_t info{};
    while (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) {
    }
  }

  // Returns the wait status.
  int reap() {
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = 0;
    return status;
  }

 private:
  pid_t pid_;
};

std::atomic<pid_t> forward_target{0};
static_assert(std::atomic<pid_t>::is_always_lock_free, "read in a signal handler");

void forward_signal(int signal) {
  const int saved_errno = errno;
  const pid_t target = forward_target.load();
  if (target > 0) ::kill(target, signal);
  errno = saved_errno;
}

// While the workload runs, Ctrl-C or a SIGTERM meant for topdown stops the
// workload instead, and topdown still reports what was counted.
class SignalForwarding {
 public:
  explicit SignalForwarding(pid_t child) {
    forward_target.store(child);
    struct sigaction forward {};
    forward.sa_handler = forward_signal;
    forward.sa_flags = SA_RESTART;
    sigemptyset(&forward.sa_mask);
    ::sigaction(SIGINT, &forward, &previous_int_);
    ::sigaction(SIGTERM, &forward, &previous_term_);
  }
  SignalForwarding(const SignalForwarding&) = delete;
  SignalForwarding& operator=(const SignalForwarding&) = delete;
  ~SignalForwarding() {
    ::sigaction(SIGINT, &previous_int_, nullptr);
    ::sigaction(SIGTERM, &previous_term_, nullptr);
    forward_target.store(0);
  }

 private:
  struct sigaction previous_int_ {};
  struct sigaction previous_term_ {};
};

// Runs in the forked child: only async-signal-safe calls until exec.
[[noreturn]] void exec_when_released(int release_read, int release_write, int error_write, char* const* argv) {
  ::close(release_write);
  char unused = 0;
  ssize_t got;
  while ((got = ::read(release_read, &unused, 1)) < 0 && errno == EINTR) {
  }
  if (got != 0) ::_exit(127);  // the parent writes nothing: closing the pipe is the release
  ::execvp(argv[0], argv);
  const int err = errno;
  while (::write(error_write, &err, sizeof err) < 0 && errno == EINTR) {
  }
  ::_exit(127);
}

std::string read_paranoid() {
  std::ifstream in("/proc/sys/kernel/perf_event_paranoid");
  std::string value;
  in >> value;
  return value;
}

struct OpenCounter {
  std::string name;
  Fd fd;
};

std::vector<OpenCounter> open_counters(const std::vector<CounterGroup>& groups, pid_t pid, const Options& options) {
  std::vector<OpenCounter> counters;
  for (const CounterGroup& group : groups) {
    int leader = -1;
    for (const events::Encoding& encoding : group.events) {
      if (encoding.type == events::Encoding::kAbsentPmu) {
        throw Error("cannot count '" + encoding.name + "': this machine has no PMU '" + encoding.pmu +
                    "' (the event is for another CPU); choose the model of this CPU or leave out --cpu");
      }
      perf_event_attr attr = make_attr(encoding, options, leader < 0);
      const long fd = ::syscall(SYS_perf_event_open, &attr, pid, -1, leader, PERF_FLAG_FD_CLOEXEC);
      if (fd < 0) {
        const int err = errno;
        throw Error(explain_open_failure(err, encoding, kSysfsDevices, read_paranoid()));
      }
      counters.push_back({encoding.name, Fd(static_cast<int>(fd))});
      if (leader < 0) leader = counters.back().fd.get();
    }
  }
  return counters;
}

counts::Count read_counter(const OpenCounter& counter) {
  // value, time_enabled, time_running (read_format without PERF_FORMAT_GROUP)
  uint64_t fields[3] = {};
  const ssize_t got = ::read(counter.fd.get(), fields, sizeof fields);
  if (got != static_cast<ssize_t>(sizeof fields)) {
    throw Error(fmt::format("cannot read the counter of '{}': {}", counter.name,
                            got < 0 ? std::strerror(errno) : "short read"));
  }
  return {static_cast<double>(fields[0]), fields[1], fields[2]};
}

// Returns the errno of a failed exec, or 0 once the exec succeeded (the
// close-on-exec pipe closes without data).
int exec_errno(const Fd& error_read) {
  int err = 0;
  ssize_t got;
  while ((got = ::read(error_read.get(), &err, sizeof err)) < 0 && errno == EINTR) {
  }
  return got == static_cast<ssize_t>(sizeof err) ? err : 0;
}

void set_exit_status(int status, WorkloadResult& result) {
  if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
    result.exit_code = 128 + WTERMSIG(status);
  } else {
    result.exit_code = WEXITSTATUS(status);
  }
}

}  // namespace

WorkloadResult run_workload(const std::vector<std::string>& argv, const std::vector<CounterGroup>& groups,
                            const Options& options) {
  if (argv.empty() || argv.front().empty()) throw Error("no workload to run: give the command after '--'");
  const std::string& command = argv.front();
  std::vector<char*> exec_argv;
  for (const std::string& arg : argv) exec_argv.push_back(const_cast<char*>(arg.c_str()));
  exec_argv.push_back(nullptr);

  Pipe release = make_pipe(command);
  Pipe exec_error = make_pipe(command);
  const pid_t pid = ::fork();
  if (pid < 0) throw Error(fmt::format("cannot start '{}': fork failed: {}", command, std::strerror(errno)));
  if (pid == 0) {
    exec_when_released(release.read_end.get(), release.write_end.get(), exec_error.write_end.get(), exec_argv.data());
  }
  Child child(pid);
  release.read_end.reset();
  exec_error.write_end.reset();

  const std::vector<OpenCounter> counters = open_counters(groups, pid, options);

  WorkloadResult result;
  {
    SignalForwarding forwarding(pid);
    const auto start = std::chrono::steady_clock::now();
    release.write_end.reset();
    if (const int err = exec_errno(exec_error.read_end)) {
      throw CommandNotStarted(
          fmt::format("cannot run '{}': {}; check the command name and PATH", command, std::strerror(err)), err);
    }
    child.wait_for_exit();
    result.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  set_exit_status(child.reap(), result);

  for (const OpenCounter& counter : counters) result.sample.add(counter.name, read_counter(counter));
  result.sample.duration_s = result.elapsed_s;
  return result;
}

}  // namespace topdown::collect
