// Counting every container of a node: `topdown serve --cgroups-under` over
// many cgroups, each running a pipe ping-pong (two processes handing a
// byte back and forth, so the CPUs switch between cgroups all the time),
// counted the BPF way and the perf-event way, side by side. Prints serve's
// file descriptors, its resident memory, the kernel memory the machine
// gained (Slab + Percpu of /proc/meminfo, so other activity shows too),
// serve's CPU, the ping-pong's round trips against an uncounted run and the
// time of one scrape. The goals: BPF needs at most 1/50 of the
// descriptors, and slows the ping-pong no more than perf events do.
// Counts with this CPU's model, or the software model without a PMU.
// Needs root (cgroups, and BPF). Usage:
//   cgroup_scale_bench [CGROUPS (500) [SECONDS per measurement (5)]]
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <set>

#include <fmt/format.h>

#include "collect/collect.h"
#include "support/scratch_cgroup.h"
#include "support/serve_harness.h"

using namespace topdown::testing;

namespace {

using Clock = std::chrono::steady_clock;

// The round trips of every ping-pong pair, in memory shared with the forks.
struct Trips {
  explicit Trips(size_t pair_count)
      : count(static_cast<std::atomic<uint64_t>*>(::mmap(nullptr, pair_count * sizeof(std::atomic<uint64_t>),
                                                         PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0))),
        pairs(pair_count) {}
  uint64_t total() const {
    uint64_t sum = 0;
    for (size_t i = 0; i < pairs; ++i) sum += count[i].load(std::memory_order_relaxed);
    return sum;
  }
  std::atomic<uint64_t>* count;
  size_t pairs;
};

// Hands a byte to its partner and waits for it back, forever, counting.
[[noreturn]] void ping_pong(int out, int in, std::atomic<uint64_t>* trips, bool serves_first) {
  char byte = 0;
  if (serves_first && ::write(out, &byte, 1) != 1) ::_exit(1);
  for (;;) {
    if (::read(in, &byte, 1) != 1 || ::write(out, &byte, 1) != 1) ::_exit(0);
    if (trips) trips->fetch_add(1, std::memory_order_relaxed);
  }
}

// A pair of processes in `cgroup`, ping-ponging; returns both pids.
std::pair<pid_t, pid_t> start_pair(const std::filesystem::path& cgroup, std::atomic<uint64_t>* trips) {
  int there[2];
  int back[2];
  if (::pipe(there) != 0 || ::pipe(back) != 0) throw std::runtime_error("pipe");
  std::pair<pid_t, pid_t> pids{};
  for (int side = 0; side < 2; ++side) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      std::ofstream(cgroup / "cgroup.procs") << ::getpid() << std::flush;
      if (side == 0) ping_pong(there[1], back[0], trips, true);
      ping_pong(back[1], there[0], nullptr, false);
    }
    (side == 0 ? pids.first : pids.second) = pid;
  }
  for (const int fd : {there[0], there[1], back[0], back[1]}) ::close(fd);
  return pids;
}

// Round trips per second over `seconds`.
double trip_rate(const Trips& trips, int seconds) {
  const uint64_t before = trips.total();
  const auto start = Clock::now();
  std::this_thread::sleep_for(std::chrono::seconds(seconds));
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  return static_cast<double>(trips.total() - before) / wall;
}

// Slab + Percpu of /proc/meminfo, in kB: the kernel's allocations that
// perf events and BPF maps come from.
long kernel_memory_kb() {
  std::ifstream in("/proc/meminfo");
  long sum = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("Slab:", 0) == 0 || line.rfind("Percpu:", 0) == 0) sum += std::stol(line.substr(line.find(':') + 1));
  }
  return sum;
}

// How many cgroups a scrape has a tree for (with values, or omitted with
// the reason, as for a cgroup none of whose tasks ran in the interval).
size_t cgroups_served(const std::string& text) {
  std::set<std::string> names;
  for (const auto& [key, value] : parse_exposition(text)) {
    const auto cgroup = key.second.find("cgroup");
    if ((key.first == "topdown_node_ratio" || key.first == "topdown_node_omitted") && cgroup != key.second.end())
      names.insert(cgroup->second);
  }
  return names.size();
}

struct Way {
  std::string name;
  long fds = 0;
  long rss_kb = 0;
  long kernel_kb = 0;
  double serve_cpu = 0;  // share of one CPU
  double trips_per_s = 0;
  double uncounted_trips_per_s = 0;  // the mean of the uncounted runs before and after
  double slowdown() const { return 1 - trips_per_s / uncounted_trips_per_s; }
  double scrape_ms = 0;  // median of the scrapes
  size_t served = 0;
  std::string failure;
};

Way measure(const std::string& way, const ScratchCgroup& top, size_t cgroups, const Trips& trips, int seconds) {
  Way result;
  result.name = way;
  const long kernel_before = kernel_memory_kb();
  const int port = free_port();
  // At the highest priority: a thousand busy tasks would otherwise starve
  // serve's start and scrapes, and both ways would measure the wait.
  std::vector<std::string> args = {"nice",
                                   "-n",
                                   "-20",
                                   TOPDOWN_BIN,
                                   "serve",
                                   "-I",
                                   "1000",
                                   "--cgroups-under",
                                   top.name(),
                                   "--cgroup-counting",
                                   way,
                                   "--listen",
                                   "127.0.0.1:" + std::to_string(port)};
  if (!topdown::collect::pmu_available())
    args.insert(args.end(), {"--model", std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/software.model"});
  const std::string log = "/tmp/cgroup_scale_bench." + way + ".log";
  Child serve(args, log);
  if (!wait_for_http(port, "/report", std::chrono::seconds(60))) {
    std::ifstream in(log);
    std::string last;
    for (std::string line; std::getline(in, line);) last = line;
    result.failure = "no answer within 60 s; the last line of " + log + ": " + last;
    return result;
  }
  HttpClient client(port);
  client.timeout(std::chrono::seconds(30));
  // Every cgroup is counted once a scrape has each one's tree.
  const auto give_up = Clock::now() + std::chrono::seconds(60);
  while (Clock::now() < give_up) {
    result.served = cgroups_served(client.get("/metrics").body);
    if (result.served > cgroups) break;  // the cgroups and the one above them
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  const double cpu_before = cpu_seconds(serve.pid());
  const auto start = Clock::now();
  result.trips_per_s = trip_rate(trips, seconds);
  result.serve_cpu =
      (cpu_seconds(serve.pid()) - cpu_before) / std::chrono::duration<double>(Clock::now() - start).count();
  result.fds = open_fds(serve.pid());
  result.rss_kb = proc_status_field(serve.pid(), "VmRSS");
  result.kernel_kb = kernel_memory_kb() - kernel_before;
  std::vector<double> scrape_ms;
  for (int i = 0; i < 5; ++i) {
    const auto asked = Clock::now();
    result.served = cgroups_served(client.get("/metrics").body);
    scrape_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - asked).count());
  }
  std::sort(scrape_ms.begin(), scrape_ms.end());
  result.scrape_ms = scrape_ms[scrape_ms.size() / 2];
  serve.signal(SIGTERM);
  serve.wait(std::chrono::seconds(30));
  return result;
}

std::string fixed(double value, int decimals) { return fmt::format("{:.{}f}", value, decimals); }

std::string value_or_failure(const Way& way, const std::string& value) { return way.failure.empty() ? value : "-"; }

}  // namespace

int main(int argc, char** argv) {
  const size_t cgroups = argc > 1 ? std::stoul(argv[1]) : 500;
  const int seconds = argc > 2 ? std::atoi(argv[2]) : 5;
  std::string why_not;
  const auto top = ScratchCgroup::create("scale", why_not);
  if (!top) {
    std::printf("cgroup_scale_bench: skipped: %s\n", why_not.c_str());
    return 0;
  }
  // perf events take a descriptor per event, cgroup and CPU.
  rlimit files{};
  ::getrlimit(RLIMIT_NOFILE, &files);
  files.rlim_cur = files.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &files);

  std::vector<std::unique_ptr<ScratchCgroup>> leaves;
  for (size_t i = 0; i < cgroups; ++i) {
    leaves.push_back(ScratchCgroup::create("scale/c" + std::to_string(i), why_not));
    if (!leaves.back()) {
      std::printf("cgroup_scale_bench: skipped: %s\n", why_not.c_str());
      return 0;
    }
  }
  const Trips trips(cgroups);
  std::vector<pid_t> pids;
  for (size_t i = 0; i < cgroups; ++i) {
    const auto [first, second] = start_pair(leaves[i]->directory(), &trips.count[i]);
    pids.insert(pids.end(), {first, second});
  }
  std::this_thread::sleep_for(std::chrono::seconds(1));
  // Uncounted before, between and after, as the machine's pace drifts: each
  // way is set against the runs on either side of it.
  std::vector<double> uncounted = {trip_rate(trips, seconds)};
  std::vector<Way> ways;
  for (const char* way : {"perf", "bpf"}) {
    ways.push_back(measure(way, *top, cgroups, trips, seconds));
    uncounted.push_back(trip_rate(trips, seconds));
  }
  for (const pid_t pid : pids) ::kill(pid, SIGKILL);
  for (const pid_t pid : pids) ::waitpid(pid, nullptr, 0);
  leaves.clear();

  for (size_t i = 0; i < ways.size(); ++i) ways[i].uncounted_trips_per_s = (uncounted[i] + uncounted[i + 1]) / 2;
  std::printf("%zu cgroups, each a pipe ping-pong pair; %ld CPUs; %s model; %d s per measurement\n", cgroups,
              ::sysconf(_SC_NPROCESSORS_ONLN), topdown::collect::pmu_available() ? "this CPU's" : "software", seconds);
  std::printf("uncounted round trips/s: %.0f before, %.0f between, %.0f after\n\n", uncounted[0], uncounted[1],
              uncounted[2]);
  std::printf("%-30s %14s %14s\n", "", "perf events", "BPF");
  const auto row = [&](const char* what, auto text) {
    std::printf("%-30s %14s %14s\n", what, value_or_failure(ways[0], text(ways[0])).c_str(),
                value_or_failure(ways[1], text(ways[1])).c_str());
  };
  row("cgroups served (with the top)", [](const Way& w) { return std::to_string(w.served); });
  row("file descriptors", [](const Way& w) { return std::to_string(w.fds); });
  row("serve resident memory (MB)", [](const Way& w) { return fixed(static_cast<double>(w.rss_kb) / 1024, 1); });
  row("kernel memory rise (MB) *", [](const Way& w) { return fixed(static_cast<double>(w.kernel_kb) / 1024, 1); });
  row("serve CPU (% of one)", [](const Way& w) { return fixed(100 * w.serve_cpu, 2); });
  row("ping-pong round trips/s", [](const Way& w) { return fixed(w.trips_per_s, 0); });
  row("uncounted round trips/s", [](const Way& w) { return fixed(w.uncounted_trips_per_s, 0); });
  row("ping-pong slowdown (%)", [](const Way& w) { return fixed(100 * w.slowdown(), 1); });
  row("scrape time (ms, median of 5)", [](const Way& w) { return fixed(w.scrape_ms, 1); });
  std::printf("* Slab + Percpu of the whole machine while serve ran, against before it started\n");
  for (const Way& way : ways) {
    if (!way.failure.empty()) std::printf("\n%s: serve did not start: %s\n", way.name.c_str(), way.failure.c_str());
  }
  if (!ways[0].failure.empty() || !ways[1].failure.empty()) return 1;
  const bool few_fds = ways[1].fds * 50 <= ways[0].fds;
  const bool no_slower = ways[1].slowdown() <= ways[0].slowdown();
  std::printf("\nBPF descriptors at most 1/50 of perf's: %s (%.0fx fewer)\n", few_fds ? "PASS" : "FAIL",
              static_cast<double>(ways[0].fds) / static_cast<double>(std::max(1L, ways[1].fds)));
  std::printf("BPF slows the ping-pong no more than perf events: %s\n", no_slower ? "PASS" : "FAIL");
  return few_fds && no_slower ? 0 : 1;
}
