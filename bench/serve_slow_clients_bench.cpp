// topdown serve against clients that hold connections, reconnecting when
// serve cuts them, while scrapes of /metrics are timed. Two scenes:
// - many hosts: 1,000 idle connections (connected, sending nothing) from ten
//   loopback addresses (127.0.1.1-10, 100 each) and 100 slow-loris clients
//   (a byte of their request's head a second; over TLS, of their handshake)
//   from 127.0.2.1, each host under serve's cap per client address; 500
//   scrapes from 127.0.0.1. Without and with TLS.
// - one shared address (NAT, a node-local proxy): 300 idle connections and
//   30 slow-loris clients from the scraper's own 127.0.0.1, over the cap of
//   128 per address; 300 scrapes, which serve must answer by closing idle
//   connections rather than the scraper's.
// Prints the scrape latencies, how many connections the clients held, and
// serve's memory, threads and descriptors; exit status 1 when a scrape
// fails or the p99 is over 20 ms. The bench raises its own descriptor limit
// to the hard one (it needs about 1,200; `ulimit -n` must allow that).
#include <poll.h>
#include <sys/resource.h>

#include <cstdio>
#include <fstream>
#include <optional>

#include "collect/collect.h"
#include "support/loopback_connection.h"
#include "support/serve_harness.h"
#include "support/test_pki.h"

using namespace topdown::testing;

namespace {

struct Scene {
  const char* name;
  int idle;
  int slow;
  bool shared_address;  // the clients come from the scraper's own address
  int scrapes;
};
constexpr Scene kManyHosts{"many hosts", 1000, 100, false, 500};
constexpr Scene kSharedAddress{"one address shared with the scraper", 300, 30, true, 300};

// Connections that the clients keep open, reconnecting each second those
// that serve has closed; the slow ones send one more byte each second.
class HeldConnections {
 public:
  HeldConnections(int port, bool tls, const Scene& scene) : port_(port), tls_(tls), scene_(scene) {
    for (int i = 0; i < scene_.idle + scene_.slow; ++i) slots_.emplace_back();
    thread_ = std::thread([this] { hold(); });
  }
  HeldConnections(const HeldConnections&) = delete;
  HeldConnections& operator=(const HeldConnections&) = delete;
  ~HeldConnections() {
    done_ = true;
    thread_.join();
  }
  size_t held() const { return held_; }
  size_t reconnects() const { return reconnects_; }

 private:
  std::string source(int slot) const {
    if (scene_.shared_address) return "127.0.0.1";
    return slot < scene_.idle ? "127.0.1." + std::to_string(1 + slot / 100) : "127.0.2.1";
  }
  // What a slow client sends first: the request line, or over TLS the
  // header of a 512-byte handshake record that it then never completes.
  std::string opening() const {
    return tls_ ? std::string("\x16\x03\x01\x02\x00", 5) : std::string("GET /metrics HTTP/1.1\r\n");
  }
  void connect(int slot) {
    slots_[slot].emplace(port_, source(slot));
    if (slot >= scene_.idle) slots_[slot]->send(opening());
  }
  void hold() {
    for (int slot = 0; slot < scene_.idle + scene_.slow; ++slot) connect(slot);
    auto tick = std::chrono::steady_clock::now();
    while (!done_) {
      std::vector<pollfd> watched;
      for (const auto& slot : slots_) watched.push_back({slot && slot->valid() ? slot->fd() : -1, POLLIN, 0});
      ::poll(watched.data(), watched.size(), 100);
      size_t open = 0;
      for (size_t i = 0; i < watched.size(); ++i) {
        char byte = 0;
        if ((watched[i].revents & (POLLIN | POLLHUP | POLLERR)) != 0 &&
            ::recv(watched[i].fd, &byte, 1, MSG_DONTWAIT) <= 0) {
          slots_[i].reset();  // closed by serve: reconnected at the next tick
        }
        open += slots_[i] && slots_[i]->valid();
      }
      held_ = open;
      if (std::chrono::steady_clock::now() < tick) continue;
      tick += std::chrono::seconds(1);
      for (int slot = 0; slot < scene_.idle + scene_.slow; ++slot) {
        if (!slots_[slot] || !slots_[slot]->valid()) {
          connect(slot);
          ++reconnects_;
        } else if (slot >= scene_.idle) {
          slots_[slot]->send(tls_ ? std::string(1, '\x01') : std::string("X"));
        }
      }
    }
  }

  const int port_;
  const bool tls_;
  const Scene scene_;
  std::vector<std::optional<LoopbackConnection>> slots_;
  std::atomic<bool> done_{false};
  std::atomic<size_t> held_{0};
  std::atomic<size_t> reconnects_{0};
  std::thread thread_;
};

struct Usage {
  long rss_kb = 0;
  long threads = 0;
  long fds = 0;
};

Usage usage_of(pid_t pid) {
  return {proc_status_field(pid, "VmRSS"), proc_status_field(pid, "Threads"), open_fds(pid)};
}

// One run; false when a check fails.
bool run(bool tls, const Scene& scene, const std::string& pki_dir) {
  const int port = free_port();
  std::vector<std::string> argv = {TOPDOWN_BIN, "serve", "-I", "1000", "--listen", "127.0.0.1:" + std::to_string(port)};
  if (!topdown::collect::pmu_available()) {
    argv.insert(argv.end(), {"--model", std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/software.model"});
  }
  TestPki pki;
  if (tls) {
    if (!TestPki::make(pki_dir, pki)) {
      std::printf("openssl could not make the certificates in %s\n", pki_dir.c_str());
      return false;
    }
    std::ofstream(pki_dir + "/web.yml") << "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n";
    argv.insert(argv.end(), {"--web-config", pki_dir + "/web.yml"});
  }
  Child serve(argv, "/tmp/serve_slow_clients_bench.log");
  const auto scraper = [&] {
    auto client = std::make_unique<HttpClient>(port, tls ? "https" : "http");
    if (tls) client->ca_file(pki.ca_certificate());
    return client;
  };
  bool started = false;
  for (int attempt = 0; attempt < 100 && !started; ++attempt) {
    started = scraper()->get("/report").status == 200;
    if (!started) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  if (!started) {
    std::printf("topdown serve did not start (see /tmp/serve_slow_clients_bench.log)\n");
    return false;
  }
  const Usage before = usage_of(serve.pid());
  Usage peak = before;
  LoadResult result;
  size_t held_least = scene.idle + scene.slow;
  size_t held_sum = 0;
  size_t reconnects = 0;
  {
    HeldConnections held(port, tls, scene);
    std::this_thread::sleep_for(std::chrono::seconds(2));  // all connected
    const auto client = scraper();
    for (int scrape = 0; scrape < scene.scrapes; ++scrape) {
      const auto start = std::chrono::steady_clock::now();
      const HttpResponse answer = client->get("/metrics");
      if (answer.status == 200) {
        result.latencies_s.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      } else {
        ++result.failed;
      }
      held_least = std::min(held_least, held.held());
      held_sum += held.held();
      const Usage now = usage_of(serve.pid());
      peak = {std::max(peak.rss_kb, now.rss_kb), std::max(peak.threads, now.threads), std::max(peak.fds, now.fds)};
      std::this_thread::sleep_for(std::chrono::milliseconds(10));  // a little over 5 s in all: past the head deadline
    }
    reconnects = held.reconnects();
  }
  std::this_thread::sleep_for(std::chrono::seconds(1));
  const Usage after = usage_of(serve.pid());
  std::printf(
      "%s, %s: %zu of %d scrapes succeeded beside %d idle and %d slow-loris clients (%zu connections held on "
      "average, at least %zu; %zu reconnects after serve cut them)\n",
      scene.name, tls ? "TLS" : "plain HTTP", result.latencies_s.size(), scene.scrapes, scene.idle, scene.slow,
      held_sum / static_cast<size_t>(scene.scrapes), held_least, reconnects);
  std::printf("  scrape latency p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", result.percentile_s(0.5) * 1e3,
              result.p99_s() * 1e3, result.percentile_s(1.0) * 1e3);
  std::printf("  serve VmRSS %ld -> peak %ld -> %ld kB; threads %ld -> peak %ld; descriptors %ld -> peak %ld -> %ld\n",
              before.rss_kb, peak.rss_kb, after.rss_kb, before.threads, peak.threads, before.fds, peak.fds, after.fds);
  serve.signal(SIGTERM);
  const std::optional<int> status = serve.wait(std::chrono::seconds(15));
  return result.failed == 0 && result.p99_s() <= 0.020 && status == 0;
}

}  // namespace

int main() {
  rlimit limit{};
  ::getrlimit(RLIMIT_NOFILE, &limit);
  limit.rlim_cur = limit.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &limit);
  const int needed = kManyHosts.idle + kManyHosts.slow + 100;
  if (limit.rlim_cur < static_cast<rlim_t>(needed)) {
    std::printf("needs %d descriptors; the hard limit is %ld: raise it (ulimit -Hn)\n", needed,
                static_cast<long>(limit.rlim_max));
    return 1;
  }
  const bool plain = run(false, kManyHosts, "");
  const bool tls = run(true, kManyHosts, "/tmp/serve_slow_clients_bench-pki");
  const bool shared = run(false, kSharedAddress, "");
  return plain && tls && shared ? 0 : 1;
}
