#include "collect/process.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "collect/collect.h"
#include "common/error.h"

namespace topdown::collect {
namespace {

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

// Runs in the forked child: only async-signal-safe calls until exec.
[[noreturn]] void exec_when_released(int release_read, int release_write, int error_write, char* const* argv,
                                     const Identity* run_as) {
  ::close(release_write);  // else the child would hold its own release back
  char unused = 0;
  ssize_t got;
  while ((got = ::read(release_read, &unused, 1)) < 0 && errno == EINTR) {
  }
  if (got != 0) ::_exit(127);                       // the parent writes nothing: closing the pipe is the release
  if (run_as && apply(*run_as) != 0) ::_exit(126);  // apply() said why, in one line
  ::execvp(argv[0], argv);
  const int err = errno;
  while (::write(error_write, &err, sizeof err) < 0 && errno == EINTR) {
  }
  ::_exit(127);
}

// The errno of a failed exec, or 0 once the exec succeeded (the close-on-exec
// pipe closes without data).
int exec_errno(const Fd& error_read) {
  int err = 0;
  ssize_t got;
  while ((got = ::read(error_read.get(), &err, sizeof err)) < 0 && errno == EINTR) {
  }
  return got == static_cast<ssize_t>(sizeof err) ? err : 0;
}

}  // namespace

Fd watch_process(pid_t pid) {
  const long fd = ::syscall(SYS_pidfd_open, pid, 0);
  if (fd < 0) {
    const int err = errno;
    if (err == ESRCH) throw Error(fmt::format("no process {}; check the pid given with -p", pid));
    throw Error(fmt::format("cannot watch process {}: {}", pid, std::strerror(err)));
  }
  ::fcntl(static_cast<int>(fd), F_SETFD, FD_CLOEXEC);
  return Fd(static_cast<int>(fd));
}

std::vector<pid_t> threads_of(pid_t pid) {
  std::vector<pid_t> threads{pid};
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task", error)) {
    const pid_t tid = static_cast<pid_t>(std::strtol(entry.path().filename().c_str(), nullptr, 10));
    if (tid > 0 && tid != pid) threads.push_back(tid);
  }
  if (error) throw Error(fmt::format("no process {}; check the pid given with -p", pid));
  std::sort(threads.begin() + 1, threads.end());
  return threads;
}

std::string command_of(pid_t tid) {
  std::ifstream in("/proc/" + std::to_string(tid) + "/comm");
  std::string command;
  std::getline(in, command);
  return command;
}

Workload::Workload(const std::vector<std::string>& argv, const std::optional<Identity>& run_as) {
  if (argv.empty() || argv.front().empty()) throw Error("no workload to run: give the command after '--'");
  command_ = argv.front();
  std::vector<char*> exec_argv;
  for (const std::string& arg : argv) exec_argv.push_back(const_cast<char*>(arg.c_str()));
  exec_argv.push_back(nullptr);

  Pipe release = make_pipe(command_);
  Pipe exec_error = make_pipe(command_);
  pid_ = ::fork();
  if (pid_ < 0) throw Error(fmt::format("cannot start '{}': fork failed: {}", command_, std::strerror(errno)));
  if (pid_ == 0) {
    exec_when_released(release.read_end.get(), release.write_end.get(), exec_error.write_end.get(), exec_argv.data(),
                       run_as ? &*run_as : nullptr);
  }
  release_write_ = std::move(release.write_end);
  exec_error_read_ = std::move(exec_error.read_end);
  try {
    exited_ = watch_process(pid_);
  } catch (const Error&) {
    ::kill(pid_, SIGKILL);
    reap();
    throw;
  }
}

Workload::~Workload() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    reap();
  }
}

void Workload::release() {
  release_write_.reset();
  if (const int err = exec_errno(exec_error_read_)) {
    throw CommandNotStarted(
        fmt::format("cannot run '{}': {}; check the command name and PATH", command_, std::strerror(err)), err);
  }
}

int Workload::reap() {
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = 0;
  return status;
}

}  // namespace topdown::collect
