#include "cli/standard_streams.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace topdown::cli {
namespace {

int stdout_error = 0;  // errno of the first failed write to stdout

}  // namespace

void reserve_standard_streams() {
  for (const int stream : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) {
    if (::fcntl(stream, F_GETFD) != -1 || errno != EBADF) continue;
    // open() takes the lowest free number, which is `stream`: 0 before 1 before 2.
    // Without /dev/null the stream stays closed, as it was given.
    [[maybe_unused]] const int placeholder = ::open("/dev/null", O_RDONLY);
  }
}

void write_stdout(std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
    if (stdout_error == 0) stdout_error = errno;
  }
}

int status_after_streams(int status) {
  if (std::fflush(stdout) != 0 && stdout_error == 0) stdout_error = errno;
  const bool stdout_failed = stdout_error != 0 || std::ferror(stdout);
  const bool stderr_failed = std::fflush(stderr) != 0 || std::ferror(stderr);
  if (!stdout_failed && !stderr_failed) return status;
  const bool stdout_gone = stdout_error == EPIPE || stdout_error == EBADF;
  if (stdout_failed && !stderr_failed && !stdout_gone) {
    const char* reason = stdout_error != 0 ? std::strerror(stdout_error) : "a write failed";
    std::fprintf(stderr, "topdown: cannot write the output to stdout: %s; free some space or redirect it elsewhere\n",
                 reason);
  }
  return kTopdownFailed;
}

}  // namespace topdown::cli
