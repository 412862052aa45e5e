// What clients can hold of `topdown serve`'s HTTP server: the deadline for
// a request's head, the caps on connections in all and per client address,
// and keep-alive's limit. The bounds only ever wait for something to happen
// (generously), never for it not to happen early: a deadline is never early.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "serve/http_server.h"
#include "support/http_client.h"
#include "support/loopback_connection.h"

namespace topdown::serve {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using testing::HttpClient;
using testing::LoopbackConnection;

struct LimitedServer {
  explicit LimitedServer(const ServerLimits& limits)
      : server(parse_listen_address("127.0.0.1:0"), store, "test", WebConfig{}, limits) {}
  SnapshotStore store{milliseconds(100)};
  HttpServer server;
};

// `source` asks for /healthz on a connection of its own; the status line, or "" when refused.
std::string status_line(int port, const std::string& source) {
  const LoopbackConnection connection(port, source);
  if (!connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")) return "";
  const std::string reply = connection.read_all(seconds(20));
  return reply.substr(0, reply.find("\r\n"));
}

TEST(ConnectionLimits, ASilentClientHoldsUpNothingAndIsCutAtTheHeadDeadline) {
  ServerLimits limits;
  limits.head_deadline = seconds(1);
  limits.idle_timeout = seconds(60);  // only the head deadline can cut it
  LimitedServer s(limits);
  const LoopbackConnection silent(s.server.port());
  ASSERT_TRUE(silent.send("GET /metr"));
  // One thread serves every connection, and the silent one takes none of its time.
  EXPECT_EQ(HttpClient(s.server.port()).get("/healthz").status, 200);
  EXPECT_TRUE(silent.closed_within(seconds(20)));
}

TEST(ConnectionLimits, AClientDrippingItsHeadIsCutAtTheDeadline) {
  ServerLimits limits;
  limits.head_deadline = seconds(1);
  limits.idle_timeout = seconds(60);
  LimitedServer s(limits);
  const LoopbackConnection dripping(s.server.port());
  ASSERT_TRUE(dripping.send("GET /metrics HTTP/1.1\r\n"));
  // A header byte every 50 ms is never idle and, within the 16 KiB of a head,
  // could go on for minutes; the deadline ends it.
  const auto start = std::chrono::steady_clock::now();
  size_t sent = 0;
  while (std::chrono::steady_clock::now() - start < seconds(30) && dripping.send("X")) {
    ++sent;
    if (dripping.closed_within(milliseconds(50))) break;
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, seconds(30)) << sent << " bytes sent";
  EXPECT_GE(std::chrono::steady_clock::now() - start, milliseconds(900));
  EXPECT_GT(HttpClient(s.server.port()).get("/healthz").status, 0);
}

TEST(ConnectionLimits, AClientAskingAtOnceIsServedBesideIdleConnectionsOfItsAddress) {
  ServerLimits limits;
  limits.max_connections_per_client = 2;
  limits.head_deadline = seconds(60);
  LimitedServer s(limits);
  const LoopbackConnection first(s.server.port(), "127.0.0.1");
  const LoopbackConnection second(s.server.port(), "127.0.0.1");
  const LoopbackConnection elsewhere(s.server.port(), "127.0.0.2");
  ASSERT_TRUE(first.valid() && second.valid() && elsewhere.valid());
  // Behind NAT the scraper shares its address with idle clients: its request
  // is answered, and the idle connection of its address that waited longest
  // is closed instead (before the answer, so no waiting for it is needed).
  EXPECT_EQ(status_line(s.server.port(), "127.0.0.1"), "HTTP/1.1 200 OK");
  EXPECT_TRUE(first.closed_within(seconds(20)));
  EXPECT_TRUE(second.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
  EXPECT_NE(second.read_all(seconds(20)).find("200 OK"), std::string::npos);
  // Another address's connection is never closed for this address's cap.
  EXPECT_TRUE(elsewhere.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
  EXPECT_NE(elsewhere.read_all(seconds(20)).find("200 OK"), std::string::npos);
}

TEST(ConnectionLimits, AtTheCapInAllANewClientIsServedAndAnIdleOneClosed) {
  ServerLimits limits;
  limits.max_connections = 2;
  limits.head_deadline = seconds(60);
  LimitedServer s(limits);
  const LoopbackConnection oldest(s.server.port(), "127.0.0.3");
  const LoopbackConnection newer(s.server.port(), "127.0.0.4");
  ASSERT_TRUE(oldest.valid() && newer.valid());
  EXPECT_EQ(status_line(s.server.port(), "127.0.0.5"), "HTTP/1.1 200 OK");
  EXPECT_TRUE(oldest.closed_within(seconds(20)));
  EXPECT_TRUE(newer.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
  EXPECT_NE(newer.read_all(seconds(20)).find("200 OK"), std::string::npos);
}

TEST(ConnectionLimits, KeepAliveEndsAfterItsRequests) {
  ServerLimits limits;
  limits.keep_alive_requests = 2;
  LimitedServer s(limits);
  HttpClient client(s.server.port());
  const auto first = client.get("/healthz");
  const auto second = client.get("/healthz");
  EXPECT_EQ(first.status, 200);
  EXPECT_EQ(first.header("Connection"), "");
  EXPECT_EQ(second.status, 200);
  EXPECT_EQ(second.header("Connection"), "close");
}

}  // namespace
}  // namespace topdown::serve
