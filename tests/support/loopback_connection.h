#pragma once
// A raw TCP connection to a server on loopback, from any loopback source
// address (127.0.0.0/8 is all this machine's, so a test can be many
// clients): for clients that send part of a request and wait, or drip it.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <string>

namespace topdown::testing {

class LoopbackConnection {
 public:
  // Connects to 127.0.0.1:`port` from `source` (any port); valid() says
  // whether it did.
  explicit LoopbackConnection(int port, const std::string& source = "127.0.0.1")
      : fd_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
    sockaddr_in from{};
    from.sin_family = AF_INET;
    ::inet_pton(AF_INET, source.c_str(), &from.sin_addr);
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(static_cast<uint16_t>(port));
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const bool connected = fd_ >= 0 && ::bind(fd_, reinterpret_cast<sockaddr*>(&from), sizeof from) == 0 &&
                           ::connect(fd_, reinterpret_cast<sockaddr*>(&to), sizeof to) == 0;
    if (!connected && fd_ >= 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  LoopbackConnection(LoopbackConnection&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  LoopbackConnection& operator=(LoopbackConnection&&) = delete;
  LoopbackConnection(const LoopbackConnection&) = delete;
  LoopbackConnection& operator=(const LoopbackConnection&) = delete;
  ~LoopbackConnection() {
    if (fd_ >= 0) ::close(fd_);
  }

  bool valid() const { return fd_ >= 0; }
  int fd() const { return fd_; }
  // False when the server has closed the connection.
  bool send(const std::string& bytes) const {
    return fd_ >= 0 && ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size());
  }
  // What the server sends until it closes the connection, or until `limit`.
  std::string read_all(std::chrono::milliseconds limit) const {
    std::string got;
    read_until_closed(limit, got);
    return got;
  }
  // True when the server closes the connection within `limit` (anything it
  // sends first is read and dropped).
  bool closed_within(std::chrono::milliseconds limit) const {
    std::string dropped;
    return read_until_closed(limit, dropped);
  }

 private:
  // Reads into `got` until the server closes (true) or `limit` passes (false).
  bool read_until_closed(std::chrono::milliseconds limit, std::string& got) const {
    const auto end = std::chrono::steady_clock::now() + limit;
    for (auto now = std::chrono::steady_clock::now(); now < end; now = std::chrono::steady_clock::now()) {
      pollfd ready{fd_, POLLIN, 0};
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - now).count();
      if (::poll(&ready, 1, static_cast<int>(left) + 1) <= 0) continue;
      char buffer[4096];
      const ssize_t n = ::recv(fd_, buffer, sizeof buffer, MSG_DONTWAIT);
      if (n <= 0) return true;  // end of file, or reset
      got.append(buffer, static_cast<size_t>(n));
    }
    return false;
  }

  int fd_;
};

}  // namespace topdown::testing
