#include "sampling/data_writer.h"

#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/error.h"

namespace topdown::sampling {

DataWriter::DataWriter(const std::string& path) : path_(path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw Error("cannot write " + path + ": " + std::strerror(errno) + "; choose another file with -o");
  fd_ = perf::Fd(fd);
}

void DataWriter::write(std::span<const std::byte> first, std::span<const std::byte> second) {
  iovec parts[2] = {{const_cast<std::byte*>(first.data()), first.size()},
                    {const_cast<std::byte*>(second.data()), second.size()}};
  int part = 0;
  while (part < 2) {
    const ssize_t written = ::writev(fd_.get(), parts + part, 2 - part);
    if (written < 0) {
      if (errno == EINTR) continue;
      throw Error("cannot write " + path_ + ": " + std::strerror(errno) + "; free some space or choose another file");
    }
    bytes_ += static_cast<uint64_t>(written);
    auto left = static_cast<std::size_t>(written);
    while (part < 2 && left >= parts[part].iov_len) left -= parts[part++].iov_len;
    if (part < 2) {
      parts[part].iov_base = static_cast<std::byte*>(parts[part].iov_base) + left;
      parts[part].iov_len -= left;
    }
  }
}

void DataWriter::write(std::string_view bytes) {
  write(std::as_bytes(std::span<const char>(bytes.data(), bytes.size())));
}

}  // namespace topdown::sampling
