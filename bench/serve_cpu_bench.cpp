// The CPU topdown serve uses, as a fraction of one CPU, at -I 1000 and
// -I 100 (the goal: under 0.2% at 1 s), scraped once a second as
// Prometheus would. Counts with this CPU's model, or the software model
// where there is no PMU. Usage: serve_cpu_bench [SECONDS per run, default 30]
#include <unistd.h>

#include <cstdio>
#include <fstream>

#include "collect/collect.h"
#include "support/serve_harness.h"

using namespace topdown::testing;

int main(int argc, char** argv) {
  const int seconds = argc > 1 ? std::atoi(argv[1]) : 30;
  const bool pmu = topdown::collect::pmu_available();
  for (const char* interval : {"1000", "100"}) {
    const int port = free_port();
    std::vector<std::string> args = {TOPDOWN_BIN, "serve",    "-I",
                                     interval,    "--listen", "127.0.0.1:" + std::to_string(port)};
    if (!pmu) args.insert(args.end(), {"--model", std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/software.model"});
    Child serve(args, "/tmp/serve_cpu_bench.log");
    if (!wait_for_http(port, "/report", std::chrono::seconds(10))) {
      std::printf("topdown serve did not start (see /tmp/serve_cpu_bench.log)\n");
      return 1;
    }
    HttpClient client(port);
    const double cpu_before = cpu_seconds(serve.pid());
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < seconds; ++i) {
      std::this_thread::sleep_for(std::chrono::seconds(1));
      client.get("/metrics");
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double used = cpu_seconds(serve.pid()) - cpu_before;
    std::printf("serve -I %s (%s model, %ld CPUs, one scrape/s): %.3f%% of one CPU (%.3f s CPU in %.1f s)\n", interval,
                pmu ? "this CPU's" : "software", ::sysconf(_SC_NPROCESSORS_ONLN), 100 * used / wall, used, wall);
    serve.signal(SIGTERM);
    serve.wait(std::chrono::seconds(15));
  }
  return 0;
}
