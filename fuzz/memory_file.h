#pragma once
// The loaders read paths, so each fuzz input becomes an anonymous in-memory
// file (memfd) opened through /proc/self/fd: no disk traffic, nothing left
// behind when a run is killed.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>

namespace topdown::fuzz {

class MemoryFile {
 public:
  MemoryFile(const uint8_t* data, size_t size) : fd_(memfd_create("fuzz-input", MFD_CLOEXEC)) {
    if (fd_ < 0) std::abort();  // the harness, not topdown, failed
    for (size_t written = 0; written < size;) {
      const ssize_t n = ::write(fd_, data + written, size - written);
      if (n <= 0) std::abort();
      written += static_cast<size_t>(n);
    }
  }
  ~MemoryFile() { ::close(fd_); }
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;

  std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

 private:
  int fd_;
};

}  // namespace topdown::fuzz
