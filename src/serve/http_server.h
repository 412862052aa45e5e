#pragma once
// The HTTP side of `topdown serve` (cpp-httplib): GET /metrics, /report,
// /healthz and / rendered from the latest snapshot, on threads of its own,
// so counting never waits on a socket.
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "serve/listen_address.h"
#include "serve/snapshot.h"

namespace topdown::serve {

// What a client can hold. Requests are served by `threads` threads; at most
// `max_connections` accepted connections wait or are served at once, and
// beyond that new ones wait in the kernel's listen queue (no descriptor, no
// memory of ours). A connection that sends nothing for `read_timeout`, or
// takes no data for `write_timeout`, is closed. A thread serves one
// connection at a time, so by default a connection serves one request and
// is closed: an idle keep-alive connection would hold a thread between
// scrapes. Request bodies are capped (none is needed).
struct ServerLimits {
  size_t threads = 8;
  size_t max_connections = 64;
  std::chrono::seconds read_timeout{5};
  std::chrono::seconds write_timeout{5};
  std::chrono::seconds keep_alive_timeout{5};
  size_t keep_alive_requests = 1;
  size_t max_request_body = 4096;
};

// The pages, apart from the server so that they are tested without one.
// GET /report: the last interval as topdown's JSON report, one object per
// line per scope (README's --json with "time" and "scope"); nullopt before
// the first interval.
std::optional<std::string> report_json(const Snapshot& snapshot);

class HttpServer {
 public:
  // Binds `address` (throws Error naming it when it cannot) and serves from
  // `store` until stop(). `description` is GET /'s line.
  HttpServer(const ListenAddress& address, const SnapshotStore& store, std::string description,
             const ServerLimits& limits = {});
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;
  ~HttpServer();

  int port() const;  // the port bound (the one chosen for port 0)
  // Stops accepting, lets the requests in progress end (each within the
  // timeouts) and joins the threads.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace topdown::serve
