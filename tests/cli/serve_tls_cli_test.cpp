// topdown serve --web-config end to end: TLS and basic authentication as
// curl and Debian's Prometheus see them, with certificates the test makes
// (openssl), and the one-line errors of a missing or bad file. Serve counts
// a sleeping process of the test's own (-p), which needs no privilege.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "run_command.h"
#include "support/bcrypt_hash.h"
#include "support/serve_harness.h"
#include "support/test_pki.h"

namespace topdown::testing {
namespace {

const std::string kModel = std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/software.model";

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "/serve-tls-" + std::to_string(::getpid()) + "-" + name;
}

// serve over TLS with user prometheus (password s3cret), counting a sleeping process.
class ServeTls : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!TestPki::make(temp_path("pki"), pki_)) GTEST_SKIP() << "the openssl command could not make certificates";
    config_ = pki_.dir.string() + "/web.yml";
    std::ofstream(config_) << "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
                           << "basic_auth_users:\n  prometheus: " << bcrypt_hash("s3cret", 10) << "\n";
    sleeper_.emplace(std::vector<std::string>{"sleep", "120"}, temp_path("sleep.log"));
    serve_.emplace(std::vector<std::string>{TOPDOWN_BIN, "serve", "--model", kModel, "-I", "200", "-p",
                                            std::to_string(sleeper_->pid()), "--listen",
                                            "127.0.0.1:" + std::to_string(port_), "--web-config", config_},
                   log_);
  }
  void TearDown() override {
    if (serve_) {
      serve_->signal(SIGTERM);
      EXPECT_EQ(serve_->wait(std::chrono::seconds(15)), 0) << slurp(log_);
    }
  }
  // Polls until an authenticated scrape over TLS answers 200.
  bool ready() {
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < end) {
      HttpClient client(port_, "https");
      client.ca_file(pki_.ca_certificate()).user("prometheus", "s3cret").timeout(std::chrono::seconds(5));
      if (client.get("/report").status == 200) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }
  // curl's HTTP status code ("000" without an answer) for /metrics with `options`.
  std::string curl_status(const std::string& scheme, const std::string& options) const {
    return run_command("curl -s -o /dev/null -w '%{http_code}' --max-time 20 " + options + " " + scheme +
                       "://127.0.0.1:" + std::to_string(port_) + "/metrics")
        .out;
  }

  TestPki pki_;
  std::string config_;
  int port_ = free_port();
  std::string log_ = temp_path("serve.log");
  std::optional<Child> sleeper_;
  std::optional<Child> serve_;
};

TEST_F(ServeTls, CurlNeedsTheCaAndThePassword) {
  if (std::system("command -v curl >/dev/null 2>&1") != 0) GTEST_SKIP() << "curl is not installed";
  ASSERT_TRUE(ready()) << slurp(log_);
  const std::string ca = "--cacert " + pki_.ca_certificate();
  EXPECT_EQ(curl_status("https", ca + " -u prometheus:s3cret"), "200");
  EXPECT_EQ(curl_status("https", ca), "401");
  EXPECT_EQ(curl_status("https", ca + " -u prometheus:wrong"), "401");
  EXPECT_EQ(curl_status("https", ca + " -u someone:s3cret"), "401");
  // A CA that did not sign the server's certificate: no exchange at all.
  EXPECT_EQ(curl_status("https", "--cacert " + pki_.other_ca_certificate() + " -u prometheus:s3cret"), "000");
  // Plain HTTP to the TLS port is not a TLS handshake: no answer.
  EXPECT_EQ(curl_status("http", "-u prometheus:s3cret"), "000");
  EXPECT_EQ(slurp(log_).rfind("topdown: serving https://127.0.0.1:" + std::to_string(port_) + "/metrics", 0), 0u)
      << slurp(log_);
}

TEST_F(ServeTls, PrometheusScrapesOverTlsWithBasicAuth) {
  if (std::system("command -v prometheus >/dev/null 2>&1") != 0) GTEST_SKIP() << "prometheus is not installed";
  ASSERT_TRUE(ready()) << slurp(log_);
  const std::string dir = temp_path("prometheus");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string target = "      - targets: ['127.0.0.1:" + std::to_string(port_) + "']\n";
  const std::string tls = "    scheme: https\n    tls_config:\n      ca_file: " + pki_.ca_certificate() + "\n";
  // The same server as two jobs: the right password, and a wrong one.
  std::ofstream(dir + "/prometheus.yml") << "global:\n  scrape_interval: 1s\n  scrape_timeout: 900ms\nscrape_configs:\n"
                                         << "  - job_name: topdown\n"
                                         << tls
                                         << "    basic_auth:\n      username: prometheus\n      password: s3cret\n"
                                         << "    static_configs:\n"
                                         << target << "  - job_name: intruder\n"
                                         << tls
                                         << "    basic_auth:\n      username: prometheus\n      password: guess\n"
                                         << "    static_configs:\n"
                                         << target;
  const int prometheus_port = free_port();
  Child prometheus({"prometheus", "--config.file=" + dir + "/prometheus.yml", "--storage.tsdb.path=" + dir + "/data",
                    "--web.listen-address=127.0.0.1:" + std::to_string(prometheus_port), "--log.level=warn"},
                   dir + "/prometheus.log");
  HttpClient api(prometheus_port);
  // `up` of each job and the intervals topdown served to the right one, once both were scraped.
  std::map<std::string, std::string> up;
  double intervals = 0;
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < end && (up.size() < 2 || intervals == 0)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    const HttpResponse ups = api.get("/api/v1/query?query=" + api.escape("up"));
    if (ups.status != 200) continue;
    const nlohmann::json answer = nlohmann::json::parse(ups.body);
    for (const nlohmann::json& series : answer["data"]["result"]) {
      up[series["metric"]["job"].get<std::string>()] = series["value"][1].get<std::string>();
    }
    const HttpResponse served = api.get("/api/v1/query?query=" + api.escape("topdown_intervals_total"));
    if (served.status != 200) continue;
    const nlohmann::json result = nlohmann::json::parse(served.body)["data"]["result"];
    if (!result.empty()) intervals = std::stod(result[0]["value"][1].get<std::string>());
  }
  EXPECT_EQ(up["topdown"], "1") << slurp(dir + "/prometheus.log");
  EXPECT_EQ(up["intruder"], "0");
  EXPECT_GT(intervals, 0);
  prometheus.signal(SIGTERM);
  EXPECT_TRUE(prometheus.wait(std::chrono::seconds(10)).has_value());
  std::filesystem::remove_all(dir);
}

TEST(ServeWebConfig, AMissingOrBadFileIsOneLine) {
  const std::string serve = std::string(TOPDOWN_BIN) + " serve --model " + kModel + " --web-config ";
  const std::string absent = temp_path("absent.yml");
  const CommandResult missing = run_command(serve + absent);
  EXPECT_EQ(missing.exit_code, 125);
  EXPECT_EQ(missing.err, "topdown: --web-config " + absent +
                             ": cannot be read; give a readable YAML file in exporter-toolkit's web configuration "
                             "format\n");
  const std::string clear = temp_path("clear.yml");
  std::ofstream(clear) << "basic_auth_users:\n  prometheus: s3cret\n";
  const CommandResult plain_password = run_command(serve + clear);
  EXPECT_EQ(plain_password.exit_code, 125);
  EXPECT_EQ(plain_password.err.rfind(
                "topdown: --web-config " + clear + ":2: the password of user 'prometheus' is not a bcrypt hash;", 0),
            0u)
      << plain_password.err;
  EXPECT_EQ(std::count(plain_password.err.begin(), plain_password.err.end(), '\n'), 1);
  // A key of terminal escape codes is quoted escaped, not obeyed.
  const std::string escapes = temp_path("escapes.yml");
  std::ofstream(escapes) << "\"\\e[2J\\e[31m\": 1\n";
  const CommandResult escaped = run_command(serve + escapes);
  EXPECT_EQ(escaped.exit_code, 125);
  EXPECT_EQ(escaped.err.find('\x1b'), std::string::npos) << escaped.err;
  EXPECT_NE(escaped.err.find("\\x1b[2J\\x1b[31m"), std::string::npos) << escaped.err;
  EXPECT_EQ(std::count(escaped.err.begin(), escaped.err.end(), '\n'), 1);
}

}  // namespace
}  // namespace topdown::testing
