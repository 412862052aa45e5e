#pragma once
// The deadline for a request's head (its request line and headers, and the
// TLS handshake before the first): a client must send the whole head within
// a limit of connecting or of its previous answer, however it spreads the
// bytes. libmicrohttpd's own timeout only counts silence, so a client
// sending a byte every second would hold its connection for ever; this
// closes it at the deadline instead (shutdown() of its socket, which the
// server then sees as a client gone).
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace topdown::serve {

class HeadDeadlines {
 public:
  using Clock = std::chrono::steady_clock;
  explicit HeadDeadlines(Clock::duration limit);
  HeadDeadlines(const HeadDeadlines&) = delete;
  HeadDeadlines& operator=(const HeadDeadlines&) = delete;
  ~HeadDeadlines();

  // The server's connection `key` with socket `fd` was accepted: its first
  // head is due within the limit.
  void opened(const void* key, int fd);
  // Its head is complete: no deadline while it is served.
  void head_received(const void* key);
  // It was answered: the next head (or the end of an idle keep-alive
  // connection) is due within the limit.
  void answered(const void* key);
  // It is closed; called before its socket is, so that a socket number
  // reused by a new connection is never shut down for the old one.
  void closed(const void* key);

  // Connections shut down for passing their deadline.
  size_t cut() const;

 private:
  struct Connection {
    int fd;
    Clock::time_point due;  // Clock::time_point::max() while none
  };
  void sweep();

  const Clock::duration limit_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::unordered_map<const void*, Connection> connections_;
  Clock::time_point awaited_ = Clock::time_point::max();  // the sweeper's next wake-up
  size_t cut_ = 0;
  bool stopping_ = false;
  std::thread sweeper_;
};

}  // namespace topdown::serve
