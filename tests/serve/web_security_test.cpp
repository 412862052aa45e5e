// TLS, client certificates, basic authentication and extra headers of
// `topdown serve`'s HTTP server, from a web configuration read as serve
// reads it, against certificates made with openssl.
#include <gtest/gtest.h>

#include <fstream>
#include <mutex>
#include <thread>

#include "serve/http_server.h"
#include "serve/password_check.h"
#include "support/bcrypt_hash.h"
#include "support/http_client.h"
#include "support/test_pki.h"

namespace topdown::serve {
namespace {

using testing::HttpClient;
using testing::HttpResponse;

std::string temp_dir(const std::string& name) {
  return ::testing::TempDir() + "/web-security-" + std::to_string(::getpid()) + "-" + name;
}

TEST(PasswordCheck, PassesTheRightPasswordOnlyAndRemembersIt) {
  PasswordCheck check({{"alice", testing::bcrypt_hash("wonderland")}, {"bob", testing::bcrypt_hash("builder")}});
  EXPECT_FALSE(check.remembered("alice", "wonderland"));
  EXPECT_FALSE(check.check("alice", "builder"));
  EXPECT_FALSE(check.check("carol", "wonderland"));
  EXPECT_FALSE(check.check("alice", "wonderlan"));
  EXPECT_FALSE(check.remembered("alice", "builder"));
  EXPECT_TRUE(check.check("alice", "wonderland"));
  EXPECT_TRUE(check.remembered("alice", "wonderland"));
  EXPECT_FALSE(check.remembered("bob", "wonderland"));
  EXPECT_FALSE(check.remembered("alice", "wonderland "));
}

TEST(PasswordChecker, EveryCheckEndsOnceEvenWhenStopped) {
  PasswordCheck check({{"alice", testing::bcrypt_hash("wonderland")}});
  std::mutex mutex;
  std::vector<std::optional<bool>> ends;
  {
    PasswordChecker checker(check);
    for (const char* password : {"wonderland", "wrong", "wonderland"}) {
      ASSERT_TRUE(checker.submit("alice", password, [&](std::optional<bool> passed) {
        std::lock_guard lock(mutex);
        ends.push_back(passed);
      }));
    }
    checker.stop();
    EXPECT_FALSE(checker.submit("alice", "wonderland", [](std::optional<bool>) { ADD_FAILURE() << "called"; }));
  }
  // Each ended once, in order: checked (only the second is wrong), or told
  // that the checker stopped first.
  ASSERT_EQ(ends.size(), 3u);
  for (size_t i = 0; i < ends.size(); ++i) {
    if (ends[i]) {
      EXPECT_EQ(*ends[i], i != 1) << i;
    }
  }
}

// A server with the users and headers of `web`.
struct Guarded {
  explicit Guarded(const WebConfig& web)
      : server(parse_listen_address("127.0.0.1:0"), store, "topdown serve: test", web) {}
  SnapshotStore store{std::chrono::milliseconds(100)};
  HttpServer server;
};

WebConfig with_user() {
  WebConfig web;
  web.users = {{"prometheus", testing::bcrypt_hash("s3cret")}};
  web.headers = {{"X-Frame-Options", "deny"}};
  return web;
}

TEST(BasicAuth, NoOrWrongCredentialsGet401WithTheChallenge) {
  Guarded g(with_user());
  for (const auto& [user, password] :
       std::vector<std::pair<std::string, std::string>>{{"", ""}, {"prometheus", "wrong"}, {"other", "s3cret"}}) {
    HttpClient client(g.server.port());
    if (!user.empty()) client.user(user, password);
    const HttpResponse answer = client.get("/metrics");
    EXPECT_EQ(answer.status, 401) << user;
    EXPECT_EQ(answer.header("WWW-Authenticate"), R"(Basic realm="topdown", charset="UTF-8")");
    EXPECT_EQ(answer.body.find("topdown_"), std::string::npos);
  }
  // Nothing is told before the password: not even which paths exist.
  EXPECT_EQ(HttpClient(g.server.port()).get("/nowhere").status, 401);
}

TEST(BasicAuth, TheRightPasswordIsServedAgainAndAgain) {
  Guarded g(with_user());
  HttpClient client(g.server.port());
  client.user("prometheus", "s3cret");
  for (int scrape = 0; scrape < 3; ++scrape) {
    const HttpResponse answer = client.get("/healthz");
    EXPECT_EQ(answer.status, 200);
    EXPECT_EQ(answer.body, "ok\n");
    EXPECT_EQ(answer.header("X-Frame-Options"), "deny");
  }
  EXPECT_EQ(client.get("/nowhere").status, 404);
  EXPECT_EQ(client.get("/nowhere").header("X-Frame-Options"), "deny");
}

// A request whose password is being checked (bcrypt at cost 12, most of a
// second) when the server stops: libmicrohttpd must not stop with the
// connection suspended. The request ends, answered or not.
TEST(BasicAuth, StoppingWhileAPasswordIsCheckedEndsTheRequest) {
  WebConfig web;
  web.users = {{"prometheus", testing::bcrypt_hash("s3cret", 12)}};
  Guarded g(web);
  HttpResponse answer;
  std::thread client([&] {
    HttpClient checked(g.server.port());
    checked.user("prometheus", "s3cret");
    answer = checked.get("/healthz");
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  g.server.stop();
  client.join();
  EXPECT_TRUE(answer.status == 0 || answer.status == 200 || answer.status == 503) << answer.status;
}

// TLS from a configuration file, as --web-config gives it.
class Tls : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing::TestPki::make(temp_dir("pki"), pki_))
      GTEST_SKIP() << "the openssl command could not make certificates";
  }
  WebConfig config(const std::string& extra) const {
    const std::string file = pki_.dir.string() + "/web.yml";
    std::ofstream(file) << "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n" << extra;
    return read_web_config(file);
  }
  testing::TestPki pki_;
};

TEST_F(Tls, ServesHttpsToClientsThatTrustItsCaOnly) {
  Guarded g(config(""));
  HttpClient trusting(g.server.port(), "https");
  trusting.ca_file(pki_.ca_certificate());
  const HttpResponse answer = trusting.get("/healthz");
  EXPECT_EQ(answer.status, 200) << answer.error;
  EXPECT_EQ(answer.body, "ok\n");
  HttpClient other(g.server.port(), "https");
  other.ca_file(pki_.other_ca_certificate());
  EXPECT_FALSE(other.get("/healthz")) << "a CA that signed nothing was trusted";
  HttpClient plain(g.server.port(), "http");
  plain.timeout(std::chrono::seconds(10));
  EXPECT_NE(plain.get("/healthz").status, 200);
}

TEST_F(Tls, RequiredClientCertificatesAreVerified) {
  Guarded g(config("  client_ca_file: ca.crt\n  client_auth_type: RequireAndVerifyClientCert\n"));
  HttpClient without(g.server.port(), "https");
  without.ca_file(pki_.ca_certificate());
  EXPECT_NE(without.get("/healthz").status, 200);
  HttpClient with(g.server.port(), "https");
  with.ca_file(pki_.ca_certificate()).client_certificate(pki_.client_certificate(), pki_.client_key());
  const HttpResponse answer = with.get("/healthz");
  EXPECT_EQ(answer.status, 200) << answer.error;
}

TEST_F(Tls, PasswordsOverTls) {
  WebConfig web = config("");
  web.users = {{"prometheus", testing::bcrypt_hash("s3cret")}};
  Guarded g(web);
  HttpClient client(g.server.port(), "https");
  client.ca_file(pki_.ca_certificate());
  EXPECT_EQ(client.get("/healthz").status, 401);
  client.user("prometheus", "s3cret");
  EXPECT_EQ(client.get("/healthz").status, 200);
}

}  // namespace
}  // namespace topdown::serve
