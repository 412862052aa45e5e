#pragma once
// The HTTP server's connections as topdown keeps them, apart from
// libmicrohttpd, for two rules it has no way to keep:
// - The deadline for a request's head (its request line and headers, and the
//   TLS handshake before the first): a client must send the whole head
//   within a limit of connecting or of its previous answer, however it
//   spreads the bytes. libmicrohttpd's own timeout only counts silence, so a
//   client sending a byte every second would hold its connection for ever.
// - The caps on connections, in all and per client address. At a cap the
//   connection closed is the one that has waited longest without sending a
//   complete head, not the new one: behind NAT or a node-local proxy the
//   scraper shares its address with idle clients, and a client that asks at
//   once must still be served. A connection being answered is never closed
//   for a cap, and the cap per address still keeps one address from holding
//   every connection.
// A connection is closed by shutdown() of its socket, which the server then
// sees as a client gone.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

namespace topdown::serve {

class ConnectionTable {
 public:
  using Clock = std::chrono::steady_clock;
  struct Caps {
    size_t in_all;
    size_t per_address;
  };
  ConnectionTable(Clock::duration head_limit, Caps caps);
  ConnectionTable(const ConnectionTable&) = delete;
  ConnectionTable& operator=(const ConnectionTable&) = delete;
  ~ConnectionTable();

  // The server's connection `key` with socket `fd` from client `address`
  // was accepted: its first head is due within the limit. When that puts
  // the address or the server over its cap, the connection (of that
  // address, or of the address holding the most) that has waited longest
  // for a head is closed; that is the new one only when no other waits.
  void opened(const void* key, int fd, const std::string& address);
  // Its head is complete: no deadline, and no closing for a cap, while it
  // is served.
  void head_received(const void* key);
  // It was answered: the next head (or the end of an idle keep-alive
  // connection) is due within the limit.
  void answered(const void* key);
  // It is closed; called before its socket is, so that a socket number
  // reused by a new connection is never shut down for the old one.
  void closed(const void* key);

  // Connections shut down for passing their deadline, and for a cap.
  size_t cut() const;
  size_t closed_for_caps() const;

 private:
  struct Connection {
    int fd;
    std::string address;
    Clock::time_point waiting_since;  // for a head; Clock::time_point::max() while served
    bool closing = false;             // shut down, not yet closed by the server
  };
  // Waiting for a head, and not yet shut.
  static bool waits(const Connection& connection);
  // The connection of `address` waiting longest for a head; nullptr when
  // none waits.
  Connection* longest_waiting(const std::string& address);
  // Among the waiting connections of the addresses that hold the most, the
  // one waiting longest; nullptr when none waits.
  Connection* longest_waiting_of_a_crowd();
  void shut(Connection& connection);
  void sweep();

  const Clock::duration head_limit_;
  const Caps caps_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::unordered_map<const void*, Connection> connections_;
  std::unordered_map<std::string, size_t> open_per_address_;  // connections not closing
  size_t open_ = 0;
  Clock::time_point awaited_ = Clock::time_point::max();  // the sweeper's next wake-up
  size_t cut_ = 0;
  size_t closed_for_caps_ = 0;
  bool stopping_ = false;
  std::thread sweeper_;
};

}  // namespace topdown::serve
