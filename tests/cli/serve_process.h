#pragma once
// `topdown serve` started by the end-to-end tests: with the software-event
// model (or another) on a free loopback port, its stderr in a file of its own.
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "run_command.h"
#include "support/serve_harness.h"

namespace topdown::testing {

inline const std::string kSoftwareModel = std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/software.model";

// A file of this test process under the test's temporary directory.
inline std::string serve_temp_path(const std::string& name) {
  return ::testing::TempDir() + "/serve-" + std::to_string(::getpid()) + "-" + name;
}

struct ServeProcess {
  int port = free_port();
  std::string log = serve_temp_path("serve-" + std::to_string(port) + ".log");
  Child child;
  explicit ServeProcess(const std::vector<std::string>& options, const std::string& model = kSoftwareModel)
      : child(arguments(options, model, port), log) {}
  static std::vector<std::string> arguments(const std::vector<std::string>& options, const std::string& model,
                                            int port) {
    std::vector<std::string> argv = {TOPDOWN_BIN, "serve",    "--model",
                                     model,       "--listen", "127.0.0.1:" + std::to_string(port)};
    argv.insert(argv.end(), options.begin(), options.end());
    return argv;
  }
  bool ready() { return wait_for_http(port, "/report", std::chrono::seconds(10)); }
  std::string scrape() {
    const HttpResponse result = HttpClient(port).get("/metrics");
    return result.status == 200 ? result.body : "";
  }
};

// Whether this user may count every CPU (root, or perf_event_paranoid 0 or less).
inline bool may_count_every_cpu() {
  return run_command(std::string(TOPDOWN_BIN) + " stat --model " + kSoftwareModel + " -a -- true").exit_code == 0;
}

// Prometheus scraping `targets` (loopback ports) every second as job
// "topdown", its storage and log in a fresh directory of its own.
struct PrometheusProcess {
  std::string dir;
  int port = free_port();
  Child child;
  PrometheusProcess(const std::string& name, const std::vector<int>& targets)
      : dir(fresh_directory(name, targets)),
        child({"prometheus", "--config.file=" + dir + "/prometheus.yml", "--storage.tsdb.path=" + dir + "/data",
               "--web.listen-address=127.0.0.1:" + std::to_string(port), "--log.level=warn"},
              dir + "/prometheus.log") {}
  // An instant query of the HTTP API.
  HttpResponse query(const std::string& promql) {
    HttpClient api(port);
    return api.get("/api/v1/query?query=" + api.escape(promql));
  }
  std::string log() const { return slurp(dir + "/prometheus.log"); }

 private:
  static std::string fresh_directory(const std::string& name, const std::vector<int>& targets) {
    const std::string dir = serve_temp_path(name);
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::ofstream config(dir + "/prometheus.yml");
    config << "global:\n  scrape_interval: 1s\n  scrape_timeout: 900ms\n"
           << "scrape_configs:\n  - job_name: topdown\n    static_configs:\n      - targets: [";
    for (size_t i = 0; i < targets.size(); ++i) config << (i ? ", " : "") << "'127.0.0.1:" << targets[i] << "'";
    config << "]\n";
    return dir;
  }
};

}  // namespace topdown::testing
