#include "cli/output.h"

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

void write_file_atomically(const std::string& path, const std::string& text) {
  std::filesystem::path target(path);
  std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  std::string pattern = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  int fd = ::mkstemp(name.data());
  if (fd < 0) {
    throw Error("cannot write output file " + path + ": " + std::strerror(errno) +
                "; choose a writable directory with -o");
  }
  size_t written = 0;
  while (written < text.size()) {
    ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    written += static_cast<size_t>(n);
  }
  int saved = errno;
  // mkstemp creates 0600; a report is an ordinary file others may read.
  bool ok = written == text.size() && ::fchmod(fd, 0644) == 0 && ::fsync(fd) == 0;
  ::close(fd);
  if (!ok || std::rename(name.data(), path.c_str()) != 0) {
    if (ok) saved = errno;
    std::remove(name.data());
    throw Error("cannot write output file " + path + ": " + std::strerror(saved) + "; nothing was written");
  }
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
