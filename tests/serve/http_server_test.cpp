#include "serve/http_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <thread>

#include "common/error.h"
#include "support/http_client.h"
#include "support/tiny_model.h"

namespace topdown::serve {
namespace {

using testing::HttpClient;
using testing::HttpResponse;

struct Served {
  model::Model model = testing::tiny_model();
  eval::Evaluator evaluator{model, {"Busy", "Idle"}, eval::Options{}};
  SnapshotStore store{std::chrono::milliseconds(100)};
  HttpServer server{parse_listen_address("127.0.0.1:0"), store, "topdown serve: test"};
  HttpClient client{server.port()};

  void publish_one_interval() {
    report::RunInfo run;
    run.model_name = "tiny";
    SnapshotBuilder builder(evaluator, ScopePlan{}, "tiny", run, std::chrono::milliseconds(100));
    counts::Sample sample;
    sample.events["cycles"] = {1000, 100, 100};
    sample.events["busy_slots"] = {1000, 100, 100};
    sample.events["idle_slots"] = {3000, 100, 100};
    sample.duration_s = 0.1;
    store.publish(builder.add(0.1, sample, {{"CPU0", sample}}));
  }
};

// Sends `request` on a fresh connection and returns what comes back before
// the server closes it.
std::string raw_exchange(int port, const std::string& request) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) return "connect failed";
  // The server may close before reading it all: no SIGPIPE for the test.
  (void)!::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  ::shutdown(fd, SHUT_WR);
  std::string reply;
  char buffer[4096];
  for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) reply.append(buffer, static_cast<size_t>(n));
  ::close(fd);
  return reply;
}

TEST(HttpServer, ServesMetricsInTheExpositionFormat) {
  Served s;
  s.publish_one_interval();
  const HttpResponse result = s.client.get("/metrics");
  ASSERT_TRUE(result);
  EXPECT_EQ(result.status, 200);
  EXPECT_EQ(result.header("Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_NE(result.body.find(
                "\ntopdown_node_ratio{node=\"Busy\",level=\"1\",parent=\"\",scope=\"machine\",model=\"tiny\"} 0.25\n"),
            std::string::npos)
      << result.body;
  EXPECT_NE(result.body.find("\n# TYPE topdown_scrape_duration_seconds gauge\n"), std::string::npos);
}

TEST(HttpServer, MetricsBeforeTheFirstIntervalHaveOnlyTheHealth) {
  Served s;
  const HttpResponse result = s.client.get("/metrics");
  ASSERT_TRUE(result);
  EXPECT_EQ(result.status, 200);
  EXPECT_NE(result.body.find("\ntopdown_intervals_total 0\n"), std::string::npos) << result.body;
  EXPECT_EQ(result.body.find("topdown_node_ratio{"), std::string::npos) << result.body;
}

TEST(HttpServer, ReportIsTheLastIntervalAsJson) {
  Served s;
  const HttpResponse before = s.client.get("/report");
  ASSERT_TRUE(before);
  EXPECT_EQ(before.status, 503);
  s.publish_one_interval();
  const HttpResponse result = s.client.get("/report");
  ASSERT_TRUE(result);
  ASSERT_EQ(result.status, 200);
  const nlohmann::json report = nlohmann::json::parse(result.body);
  EXPECT_EQ(report["scope"], "machine");
  EXPECT_DOUBLE_EQ(report["time"].get<double>(), 0.1);
  EXPECT_EQ(report["model"]["name"], "tiny");
}

TEST(HttpServer, HealthAndDescription) {
  Served s;
  HttpResponse health = s.client.get("/healthz");
  ASSERT_TRUE(health);
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(health.body, "ok\n");
  s.store.stop_counting();
  health = s.client.get("/healthz");
  ASSERT_TRUE(health);
  EXPECT_EQ(health.status, 503);
  const HttpResponse root = s.client.get("/");
  ASSERT_TRUE(root);
  EXPECT_EQ(root.body, "topdown serve: test\n");
}

TEST(HttpServer, OtherPathsAndMethodsAreRefused) {
  Served s;
  const HttpResponse missing = s.client.get("/metrics/extra");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing.status, 404);
  const HttpResponse posted = s.client.post("/metrics", "x");
  ASSERT_TRUE(posted);
  EXPECT_EQ(posted.status, 405);
  EXPECT_EQ(posted.header("Allow"), "GET, HEAD");
  const HttpResponse deleted = s.client.del("/healthz");
  ASSERT_TRUE(deleted);
  EXPECT_EQ(deleted.status, 405);
  const HttpResponse head = s.client.head("/metrics");
  ASSERT_TRUE(head);
  EXPECT_EQ(head.status, 200);
}

// A malformed request is answered with an error, or the connection closed
// (the server closes with the rest of the request unread, which may reset
// the connection before the client reads the answer); never served.
TEST(HttpServer, MalformedRequestsAreNotServedAndTheServerGoesOn) {
  Served s;
  s.publish_one_interval();
  // Not served: no answer, or any answer but a success (a reset can cut it short).
  const auto refused = [](const std::string& reply) {
    const bool served = reply.rfind("HTTP/1.1 2", 0) == 0;
    EXPECT_FALSE(served) << reply.substr(0, 200);
    return !served;
  };
  EXPECT_TRUE(refused(raw_exchange(s.server.port(), "\x01\x02garbage\r\n\r\n")));
  EXPECT_TRUE(
      refused(raw_exchange(s.server.port(), "GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\n")));
  EXPECT_TRUE(refused(raw_exchange(s.server.port(), "GET /" + std::string(20000, 'a') + " HTTP/1.1\r\n\r\n")));
  EXPECT_TRUE(
      refused(raw_exchange(s.server.port(), "GET /metrics HTTP/1.1\r\n" + std::string(9000, 'h') + "\r\n\r\n")));
  const HttpResponse after = s.client.get("/healthz");
  ASSERT_TRUE(after);
  EXPECT_EQ(after.status, 200);
}

TEST(HttpServer, AnAddressInUseIsAnError) {
  SnapshotStore store{std::chrono::milliseconds(100)};
  HttpServer first(parse_listen_address("127.0.0.1:0"), store, "test");
  const std::string address = "127.0.0.1:" + std::to_string(first.port());
  try {
    HttpServer second(parse_listen_address(address), store, "test");
    FAIL() << "bound twice";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()).rfind("cannot listen on " + address, 0), 0u) << error.what();
  }
}

TEST(ListenAddress, ParsesAddressesAndRejectsTheRest) {
  EXPECT_EQ(parse_listen_address("127.0.0.1:9842").text(), "127.0.0.1:9842");
  EXPECT_EQ(parse_listen_address("[::1]:80").host, "::1");
  EXPECT_EQ(parse_listen_address("[::1]:80").text(), "[::1]:80");
  EXPECT_EQ(parse_listen_address("0.0.0.0:0").port, 0);
  EXPECT_EQ(parse_listen_address("localhost:9842").host, "127.0.0.1");
  EXPECT_EQ(parse_listen_address(kDefaultListen).host, "127.0.0.1");
  for (const char* bad : {"9842", ":9842", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "127.0.0.1:80x", "::1:80",
                          "[127.0.0.1]:80", "example.com:80", "256.0.0.1:80"}) {
    try {
      parse_listen_address(bad);
      ADD_FAILURE() << bad << " accepted";
    } catch (const Error& error) {
      EXPECT_EQ(std::string(error.what()).rfind("--listen '" + std::string(bad) + "': ", 0), 0u) << error.what();
    }
  }
}

TEST(SnapshotStore, HealthyWhileIntervalsComeInTime) {
  using Clock = SnapshotStore::Clock;
  SnapshotStore store(std::chrono::milliseconds(1000));
  const Clock::time_point now = Clock::now();
  EXPECT_TRUE(store.healthy(now));
  EXPECT_FALSE(store.healthy(now + std::chrono::seconds(5)));  // no interval for five periods
  store.publish(std::make_shared<Snapshot>());
  EXPECT_TRUE(store.healthy(Clock::now() + std::chrono::seconds(3)));
  EXPECT_NE(store.latest(), nullptr);
  store.stop_counting();
  EXPECT_FALSE(store.healthy());
}

}  // namespace
}  // namespace topdown::serve
