#include "cli/output.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "cli/output_paths.h"
#include "cli/signals.h"
#include "common/error.h"

namespace topdown::cli {
namespace {

// stdout or stderr when they write to `file` (and may write), else -1.
int standard_stream_writing(const struct stat& file) {
  for (const int stream : {STDOUT_FILENO, STDERR_FILENO}) {
    struct stat written {};
    if (::fstat(stream, &written) != 0 || written.st_dev != file.st_dev || written.st_ino != file.st_ino) continue;
    const int flags = ::fcntl(stream, F_GETFL);
    if (flags >= 0 && (flags & O_ACCMODE) != O_RDONLY) return stream;
  }
  return -1;
}

void write_all(int fd, std::string_view text) {
  size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::system_error(n < 0 ? errno : EIO, std::generic_category());
    written += static_cast<size_t>(n);
  }
}

}  // namespace

ReportSink::ReportSink(std::string path, std::string_view option) : path_(std::move(path)), option_(option) {
  if (path_.empty()) return;
  struct stat existing {};
  if (::stat(path_.c_str(), &existing) == 0) {
    if (const int stream = standard_stream_writing(existing); stream >= 0) {
      fd_ = ::fcntl(stream, F_DUPFD_CLOEXEC, 3);
      if (fd_ < 0) fail(errno);
      return;
    }
    if (!S_ISREG(existing.st_mode) && !S_ISDIR(existing.st_mode)) {
      fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
      if (fd_ < 0) fail(errno);
      return;
    }
  }
  replaced_ = file_behind_links(path_);
  const std::filesystem::path target(replaced_);
  const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  const std::string pattern = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const EndingSignalsHeld held;  // until the file is registered for removal
  fd_ = ::mkstemp(name.data());
  if (fd_ < 0) {
    throw Error("cannot write output file " + path_ + ": " + std::strerror(errno) +
                "; choose a writable directory with " + option_);
  }
  temporary_ = name.data();
  try {
    remove_on_signal(temporary_);
  } catch (const Error&) {
    ::close(fd_);
    std::remove(temporary_.c_str());
    throw;
  }
}

ReportSink::~ReportSink() {
  if (fd_ < 0) return;
  ::close(fd_);
  if (temporary_.empty()) return;
  std::remove(temporary_.c_str());
  forget_temporary(temporary_);
}

void ReportSink::fail(int error) const {
  if (temporary_.empty()) {
    throw Error("cannot write output file " + path_ + ": " + std::strerror(error) + "; choose another path with " +
                option_);
  }
  throw Error("cannot write output file " + path_ + ": " + std::strerror(error) + "; nothing was written");
}

void ReportSink::write(std::string_view text) {
  if (path_.empty()) {
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
    return;
  }
  // A file appears only at commit: gather the records and write them in
  // large pieces, not one system call per interval; memory stays bounded.
  // A stream (a terminal, a pipe) shows each record as it comes.
  pending_ += text;
  if (temporary_.empty() || pending_.size() >= kFlushBytes) flush();
}

void ReportSink::flush() {
  try {
    write_all(fd_, pending_);
  } catch (const std::system_error& error) {
    fail(error.code().value());
  }
  pending_.clear();
}

void ReportSink::commit() {
  if (path_.empty()) return;
  flush();
  if (temporary_.empty()) {  // written in place
    const int closed = ::close(fd_);
    fd_ = -1;
    if (closed != 0 && errno != EINTR) fail(errno);
    return;
  }
  // mkstemp creates 0600; a report is an ordinary file others may read.
  // No fsync: the rename is what keeps a half-written file from the name,
  // and waiting for the disk would double the time of a large import; a
  // report lost to a power cut is written again by running the command again.
  bool ok = ::fchmod(fd_, 0644) == 0;
  int saved = errno;
  if (::close(fd_) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  fd_ = -1;
  if (!ok || std::rename(temporary_.c_str(), replaced_.c_str()) != 0) {
    if (ok) saved = errno;
    std::remove(temporary_.c_str());
    forget_temporary(temporary_);
    fail(saved);
  }
  forget_temporary(temporary_);
}

void write_file_atomically(const std::string& path, const std::string& text, std::string_view option) {
  ReportSink sink(path, option);
  sink.write(text);
  sink.commit();
}

void emit(const std::string& path, const std::string& text) {
  if (path.empty()) {
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
  } else {
    write_file_atomically(path, text);
  }
}

bool stderr_wants_color() {
  const char* term = std::getenv("TERM");
  return ::isatty(STDERR_FILENO) && std::getenv("NO_COLOR") == nullptr && term && std::string(term) != "dumb";
}

}  // namespace topdown::cli
