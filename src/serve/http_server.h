#pragma once
// The HTTP side of `topdown serve` (libmicrohttpd): GET /metrics, /report,
// /healthz and / rendered from the latest snapshot on one event-driven
// thread of its own, so counting never waits on a socket and no number of
// slow or idle clients can hold every thread.
#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "serve/listen_address.h"
#include "serve/snapshot.h"
#include "serve/web_config.h"

namespace topdown::serve {

// What clients can hold. A connection that passes `max_connections` in all,
// or `max_connections_per_client` from its address, closes the one (of its
// address, or at the cap in all of the address holding the most) that has
// waited longest without sending a complete request head; a connection being
// answered is never closed for a cap (ConnectionTable). A connection must send a request's whole head (request
// line and headers, after the TLS handshake) within `head_deadline` of
// connecting or of its previous answer, and heads are at most
// `max_head_bytes`; one that moves no data for `idle_timeout` while it is
// answered is closed too. A connection serves up to `keep_alive_requests`
// requests. No page takes a body: a request announcing one gets 400.
struct ServerLimits {
  size_t max_connections = 2048;
  size_t max_connections_per_client = 128;
  std::chrono::seconds head_deadline{5};
  std::chrono::seconds idle_timeout{5};
  size_t max_head_bytes = 16384;
  size_t keep_alive_requests = 100;
};

// The pages, apart from the server so that they are tested without one.
// GET /report: the last interval as topdown's JSON report, one object per
// line per scope (README's --json with "time" and "scope"); nullopt before
// the first interval.
std::optional<std::string> report_json(const Snapshot& snapshot);

class HttpServer {
 public:
  // Binds `address` (throws Error naming it when it cannot) and serves from
  // `store` until stop(), with the TLS, users and headers of `web` (plain
  // HTTP for everyone without). `description` is GET /'s line.
  HttpServer(const ListenAddress& address, const SnapshotStore& store, std::string description,
             const WebConfig& web = {}, const ServerLimits& limits = {});
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;
  ~HttpServer();

  int port() const;  // the port bound (the one chosen for port 0)
  // Stops accepting, closes every connection and joins the threads.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace topdown::serve
