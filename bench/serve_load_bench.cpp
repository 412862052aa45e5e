// topdown serve under load: 10,000 scrapes of /metrics from 50 concurrent
// clients on loopback, with garbage requests and slow-loris connections
// alongside. Prints the p99 scrape latency and checks that counting lost
// no interval and that the server holds no more descriptors or memory
// afterwards. Exit status 1 when a check fails.
#include <cstdio>

#include "collect/collect.h"
#include "support/serve_harness.h"

using namespace topdown::testing;

int main() {
  const bool pmu = topdown::collect::pmu_available();
  const int port = free_port();
  std::vector<std::string> argv = {TOPDOWN_BIN, "serve", "-I", "100", "--listen", "127.0.0.1:" + std::to_string(port)};
  if (!pmu) argv.insert(argv.end(), {"--model", std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/software.model"});
  Child serve(argv, "/tmp/serve_load_bench.log");
  if (!wait_for_http(port, "/report", std::chrono::seconds(10))) {
    std::printf("topdown serve did not start (see /tmp/serve_load_bench.log)\n");
    return 1;
  }
  load(port, 200, 5, 10, 0);  // warm up
  std::this_thread::sleep_for(std::chrono::seconds(1));
  const long fds_before = open_fds(serve.pid());
  const long rss_before = proc_status_field(serve.pid(), "VmRSS");
  const auto start = std::chrono::steady_clock::now();
  const LoadResult result = load(port, 10'000, 50, 1'000, 4);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::this_thread::sleep_for(std::chrono::seconds(6));  // slow connections time out
  const HttpResponse after = HttpClient(port).get("/metrics");
  const auto series = parse_exposition(after.body);
  const double lost =
      series.count({"topdown_lost_intervals_total", {}}) ? series.at({"topdown_lost_intervals_total", {}}) : -1;
  const long fds_after = open_fds(serve.pid());
  const long rss_after = proc_status_field(serve.pid(), "VmRSS");
  std::printf(
      "model %s; %zu scrapes from 50 clients (+1,000 garbage requests, 4 slow-loris) in %.2f s: %zu failed, p99 %.1f "
      "ms\n",
      pmu ? "of this CPU" : "software", result.latencies_s.size(), seconds, result.failed, result.p99_s() * 1e3);
  std::printf("latency p50 %.1f ms, p99.9 %.1f ms, max %.1f ms\n", result.percentile_s(0.5) * 1e3,
              result.percentile_s(0.999) * 1e3, result.percentile_s(1.0) * 1e3);
  std::printf("lost intervals %.0f; fds %ld -> %ld; VmRSS %ld -> %ld kB\n", lost, fds_before, fds_after, rss_before,
              rss_after);
  serve.signal(SIGTERM);
  const auto status = serve.wait(std::chrono::seconds(15));
  std::printf("exit status after SIGTERM: %d\n", status ? *status : -1);
  const bool ok =
      result.failed == 0 && lost == 0 && fds_after <= fds_before + 1 && rss_after <= rss_before + 8192 && status == 0;
  return ok ? 0 : 1;
}
