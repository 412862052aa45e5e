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
#include <vector>

#include "common/error.h"

namespace topdown::cli {

ReportSink::ReportSink(std::string path, std::string_view option) : path_(std::move(path)) {
  if (path_.empty()) return;
  // A device or a pipe (-o /dev/null, a FIFO) is written in place: a file
  // renamed over it would replace the device itself.
  struct stat existing {};
  if (::stat(path_.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode) && !S_ISDIR(existing.st_mode)) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) {
      throw Error("cannot write output file " + path_ + ": " + std::strerror(errno) + "; choose another path with " +
                  std::string(option));
    }
    return;
  }
  std::filesystem::path target(path_);
  std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  std::string pattern = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  fd_ = ::mkstemp(name.data());
  if (fd_ < 0) {
    throw Error("cannot write output file " + path_ + ": " + std::strerror(errno) +
                "; choose a writable directory with " + std::string(option));
  }
  temporary_ = name.data();
}

ReportSink::~ReportSink() {
  if (fd_ < 0) return;
  ::close(fd_);
  if (!temporary_.empty()) std::remove(temporary_.c_str());
}

void ReportSink::write(std::string_view text) {
  if (path_.empty()) {
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
    return;
  }
  // The file appears only at commit: gather the records and write them in
  // large pieces, not one system call per interval; memory stays bounded.
  pending_ += text;
  if (pending_.size() >= kFlushBytes) flush();
}

void ReportSink::flush() {
  const std::string_view text = pending_;
  size_t written = 0;
  while (written < text.size()) {
    ssize_t n = ::write(fd_, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      throw Error("cannot write output file " + path_ + ": " + std::strerror(errno) + "; nothing was written");
    }
    written += static_cast<size_t>(n);
  }
  pending_.clear();
}

void ReportSink::commit() {
  if (path_.empty()) return;
  flush();
  if (temporary_.empty()) {  // a device or a pipe
    ::close(fd_);
    fd_ = -1;
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
  if (!ok || std::rename(temporary_.c_str(), path_.c_str()) != 0) {
    if (ok) saved = errno;
    std::remove(temporary_.c_str());
    throw Error("cannot write output file " + path_ + ": " + std::strerror(saved) + "; nothing was written");
  }
}

void write_file_atomically(const std::string& path, const std::string& text) {
  ReportSink sink(path);
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
