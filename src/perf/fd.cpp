#include "perf/fd.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace topdown::perf {

Mapping Mapping::map(int fd, std::size_t length, int protection) {
  Mapping mapping;
  void* address = ::mmap(nullptr, length, protection, MAP_SHARED, fd, 0);
  if (address != MAP_FAILED) {
    mapping.address_ = address;
    mapping.length_ = length;
  }
  return mapping;
}

Mapping& Mapping::operator=(Mapping&& other) noexcept {
  if (this != &other) {
    reset();
    address_ = std::exchange(other.address_, nullptr);
    length_ = std::exchange(other.length_, 0);
  }
  return *this;
}

void Mapping::reset() {
  if (address_ != nullptr) ::munmap(address_, length_);
  address_ = nullptr;
  length_ = 0;
}

Opened open_event(const perf_event_attr& attr, Target target, int group_fd) {
  perf_event_attr copy = attr;  // the kernel may write the size it supports back
  const unsigned long flags = PERF_FLAG_FD_CLOEXEC | (target.cgroup ? PERF_FLAG_PID_CGROUP : 0);
  const long fd = ::syscall(SYS_perf_event_open, &copy, target.pid, target.cpu, group_fd, flags);
  if (fd < 0) return {Fd(), errno};
  return {Fd(static_cast<int>(fd)), 0};
}

std::string read_failure(int failure) {
  if (failure == kShortRead) return "short read";
  return std::strerror(failure);
}

int read_words(int fd, uint64_t* out, std::size_t words) {
  const std::size_t bytes = words * sizeof(uint64_t);
  ssize_t got = 0;
  do {
    got = ::read(fd, out, bytes);
  } while (got < 0 && errno == EINTR);
  if (got < 0) return errno;
  return static_cast<std::size_t>(got) == bytes ? 0 : kShortRead;
}

int read_event(int fd, Reading& out) {
  uint64_t words[3];
  if (const int failed = read_words(fd, words, 3)) return failed;
  out.value = words[0];
  out.times = {words[1], words[2]};
  return 0;
}

}  // namespace topdown::perf
