// topdown serve end to end with the software-event model: Prometheus
// scrapes it and gives back what it served; signals; load.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "cgroup_counting_ways.h"
#include "run_command.h"
#include "serve_process.h"
#include "support/sanitizers.h"
#include "support/scratch_cgroup.h"
#include "support/serve_harness.h"

namespace topdown::testing {
namespace {

TEST(ServeCli, PrometheusStoresWhatTopdownServed) {
  if (!may_count_every_cpu()) GTEST_SKIP() << "counting whole CPUs is not permitted for this user";
  if (std::system("command -v prometheus >/dev/null 2>&1") != 0) GTEST_SKIP() << "prometheus is not installed";
  ServeProcess serve({"-I", "500", "--per-thread"});
  ASSERT_TRUE(serve.ready()) << slurp(serve.log);

  PrometheusProcess prometheus("prometheus", {serve.port});

  // What topdown served for each interval, by its number (topdown_intervals_total),
  // until Prometheus has scraped four times (it takes a few seconds to start).
  const auto scrapes_stored = [&prometheus] {
    const HttpResponse count = prometheus.query("count_over_time(topdown_intervals_total[60s])");
    if (count.status != 200) return 0;
    const nlohmann::json answer = nlohmann::json::parse(count.body);
    const auto& result = answer["data"]["result"];
    return result.empty() ? 0 : std::stoi(result[0]["value"][1].get<std::string>());
  };
  std::map<double, std::map<SeriesKey, double>> served;
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(25);
  for (int round = 1; std::chrono::steady_clock::now() < end; ++round) {
    std::map<SeriesKey, double> series = parse_exposition(serve.scrape());
    series.erase(SeriesKey{"topdown_scrape_duration_seconds", {}});
    const auto interval = series.find(SeriesKey{"topdown_intervals_total", {}});
    if (interval != series.end()) served[interval->second] = std::move(series);
    if (round % 10 == 0 && scrapes_stored() >= 5) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_TRUE(prometheus.child.running()) << prometheus.log();
  const HttpResponse result = prometheus.query(R"({__name__=~"topdown_.+",job="topdown"}[30s])");
  ASSERT_TRUE(result) << prometheus.log();
  ASSERT_EQ(result.status, 200) << result.body;
  const nlohmann::json answer = nlohmann::json::parse(result.body);
  // Per scrape (its timestamp): the series stored.
  std::map<double, std::map<SeriesKey, double>> stored;
  for (const nlohmann::json& series : answer["data"]["result"]) {
    SeriesKey key;
    for (const auto& [name, value] : series["metric"].items()) {
      if (name == "__name__") {
        key.first = value;
      } else if (name != "job" && name != "instance") {
        key.second.emplace(name, value);
      }
    }
    if (key.first == "topdown_scrape_duration_seconds") continue;
    for (const nlohmann::json& point : series["values"]) {
      stored[point[0].get<double>()][key] = std::stod(point[1].get<std::string>());
    }
  }
  size_t scrapes_compared = 0;
  size_t values_compared = 0;
  for (const auto& [timestamp, series] : stored) {
    const auto interval = series.find(SeriesKey{"topdown_intervals_total", {}});
    ASSERT_NE(interval, series.end());
    const auto seen = served.find(interval->second);
    if (seen == served.end()) continue;  // scraped before the test's own first look
    ++scrapes_compared;
    EXPECT_EQ(series.size(), seen->second.size()) << "at " << timestamp;
    for (const auto& [key, value] : series) {
      const auto own = seen->second.find(key);
      ASSERT_NE(own, seen->second.end()) << key.first;
      EXPECT_EQ(value, own->second) << key.first << " at interval " << interval->second;
      ++values_compared;
    }
  }
  EXPECT_GE(scrapes_compared, 3u) << result.body;
  EXPECT_GE(values_compared, 3 * 20u);
  // On_CPU per CPU is a ratio Prometheus has (the idle task counts as on a CPU).
  bool has_ratio = false;
  for (const auto& [timestamp, series] : stored) {
    for (const auto& [key, value] : series) has_ratio = has_ratio || key.first == "topdown_node_ratio";
  }
  EXPECT_TRUE(has_ratio);

  prometheus.child.signal(SIGTERM);
  EXPECT_TRUE(prometheus.child.wait(std::chrono::seconds(10)).has_value());
  serve.child.signal(SIGTERM);
  EXPECT_EQ(serve.child.wait(std::chrono::seconds(10)), 0) << slurp(serve.log);
  std::filesystem::remove_all(prometheus.dir);
}

TEST(ServeCli, PromtoolAcceptsALiveScrape) {
  if (!may_count_every_cpu()) GTEST_SKIP() << "counting whole CPUs is not permitted for this user";
  if (std::system("command -v promtool >/dev/null 2>&1") != 0) GTEST_SKIP() << "promtool is not installed";
  ServeProcess serve({"-I", "200", "-l", "2"});
  ASSERT_TRUE(serve.ready()) << slurp(serve.log);
  const std::string scrape = serve_temp_path("scrape.prom");
  std::ofstream(scrape) << serve.scrape();
  const CommandResult checked = run_command("sh -c 'promtool check metrics <" + scrape + "'");
  EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err;
  EXPECT_EQ(checked.out + checked.err, "");
}

TEST(ServeCli, SighupIsHarmlessAndSigtermStopsCleanly) {
  if (!may_count_every_cpu()) GTEST_SKIP() << "counting whole CPUs is not permitted for this user";
  ServeProcess serve({"-I", "100"});
  ASSERT_TRUE(serve.ready()) << slurp(serve.log);
  serve.child.signal(SIGHUP);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_TRUE(serve.child.running());
  EXPECT_TRUE(wait_for_http(serve.port, "/healthz", std::chrono::seconds(2)));
  serve.child.signal(SIGTERM);
  EXPECT_EQ(serve.child.wait(std::chrono::seconds(10)), 0) << slurp(serve.log);
  EXPECT_EQ(slurp(serve.log).rfind("topdown: serving http://127.0.0.1:" + std::to_string(serve.port) + "/metrics", 0),
            0u)
      << slurp(serve.log);
}

TEST(ServeCli, ABadListenAddressIsOneLine) {
  const CommandResult r =
      run_command(std::string(TOPDOWN_BIN) + " serve --model " + kSoftwareModel + " --listen 10.0.0.1");
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_EQ(r.err,
            "topdown: --listen '10.0.0.1': no port; give ADDRESS:PORT with a numeric address and a port 0-65535, e.g. "
            "127.0.0.1:9842, 0.0.0.0:9842 or [::1]:9842\n");
}

TEST(ServeCli, EachCgroupIsServedAsItsOwnScope) {
  if (!may_count_every_cpu()) GTEST_SKIP() << "counting whole CPUs is not permitted for this user";
  std::string why_not;
  const auto busy_group = ScratchCgroup::create("busy", why_not);
  const auto idle_group = ScratchCgroup::create("idle", why_not);
  if (!busy_group || !idle_group) GTEST_SKIP() << why_not;
  {
    // Spins until killed; moved into its cgroup before serve starts.
    Child busy({"sh", "-c", "while :; do :; done"}, serve_temp_path("busy.log"));
    ASSERT_TRUE(busy_group->add(busy.pid()));
    ServeProcess serve({"-I", "200", "--cgroup", busy_group->name() + "," + idle_group->directory().string()});
    ASSERT_TRUE(serve.ready()) << slurp(serve.log);
    const SeriesKey busy_on_cpu{"topdown_node_ratio",
                                {{"node", "On_CPU"},
                                 {"level", "1"},
                                 {"scope", "cgroup"},
                                 {"cgroup", busy_group->name()},
                                 {"model", "software"}}};
    // One spinning process: up to one CPU's time, and any share of it on a
    // busy machine (CI's two cores shared with other tests gave it 14%): the
    // cgroup ran, so some. A whole CPU's can come out a hair over 1 (the interval's clock and the
    // counters' are read a moment apart): served when within rounding of
    // 100% (0.05 points), else left out as out_of_range; CPUs_Utilized has
    // no range.
    const SeriesKey busy_cpus{"topdown_info_value",
                              {{"metric", "CPUs_Utilized"},
                               {"unit", "CPUs"},
                               {"scope", "cgroup"},
                               {"cgroup", busy_group->name()},
                               {"model", "software"}}};
    // The spinner runs, but on a busy machine (CI's two cores) maybe not in
    // the latest interval: scrape until one shows it ran, for up to 10 s.
    std::string text;
    std::map<SeriesKey, double> series;
    for (int attempt = 0; attempt < 50 && !series.count(busy_cpus); ++attempt) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      text = serve.scrape();
      series = parse_exposition(text);
    }
    ASSERT_TRUE(series.count(busy_cpus)) << text;
    EXPECT_GT(series.at(busy_cpus), 0) << text;
    EXPECT_LT(series.at(busy_cpus), 1.05) << text;
    SeriesKey busy_out_of_range{"topdown_node_omitted",
                                {{"node", "On_CPU"},
                                 {"level", "1"},
                                 {"reason", "out_of_range"},
                                 {"scope", "cgroup"},
                                 {"cgroup", busy_group->name()},
                                 {"model", "software"}}};
    if (series.count(busy_on_cpu)) {
      SeriesKey busy_off_cpu = busy_on_cpu;
      busy_off_cpu.second["node"] = "Off_CPU";
      EXPECT_GT(series.at(busy_on_cpu), 0) << text;
      EXPECT_LE(series.at(busy_on_cpu), 1.0005) << text;
      ASSERT_TRUE(series.count(busy_off_cpu)) << text;
      EXPECT_NEAR(series.at(busy_on_cpu) + series.at(busy_off_cpu), 1.0, 1e-9) << text;
    } else {
      EXPECT_EQ(series.count(busy_out_of_range), 1u) << text;
      EXPECT_GT(series.at(busy_cpus), 1.0005) << text;
    }
    const SeriesKey idle_omitted{"topdown_node_omitted",
                                 {{"node", "On_CPU"},
                                  {"level", "1"},
                                  {"reason", "idle"},
                                  {"scope", "cgroup"},
                                  {"cgroup", idle_group->name()},
                                  {"model", "software"}}};
    EXPECT_EQ(series.count(idle_omitted), 1u) << text;
    EXPECT_EQ(text.find("scope=\"machine\""), std::string::npos) << text;
    serve.child.signal(SIGTERM);
    EXPECT_EQ(serve.child.wait(std::chrono::seconds(10)), 0) << slurp(serve.log);
  }
}

// The cgroups named in a scrape as scope="cgroup" series.
std::set<std::string> cgroups_served(const std::string& text) {
  std::set<std::string> names;
  for (const auto& [key, value] : parse_exposition(text)) {
    const auto scope = key.second.find("scope");
    if (key.first == "topdown_node_ratio" || key.first == "topdown_node_omitted") {
      if (scope != key.second.end() && scope->second == "cgroup") names.insert(key.second.at("cgroup"));
    }
  }
  return names;
}

// Under each --cgroup-counting way.
class ServeCliCgroupsUnder : public ::testing::TestWithParam<std::string> {};

TEST_P(ServeCliCgroupsUnder, CgroupsUnderAPathAreFollowedAsTheyAreMadeAndRemoved) {
  if (!may_count_every_cpu()) GTEST_SKIP() << "counting whole CPUs is not permitted for this user";
  if (const auto refused = cgroup_counting_refused(GetParam())) GTEST_SKIP() << *refused;
  std::string why_not;
  const auto top = ScratchCgroup::create("tree", why_not);
  if (!top) GTEST_SKIP() << why_not;
  constexpr int kMade = 20;
  const auto child_name = [&](int i) { return top->name() + "/c" + std::to_string(i); };
  const auto child_directory = [&](int i) { return top->directory() / ("c" + std::to_string(i)); };
  ServeProcess serve({"-I", "200", "--cgroups-under", top->name(), "--cgroup-counting", GetParam()});
  ASSERT_TRUE(serve.ready()) << slurp(serve.log);
  // Scrapes until `done` says the served cgroups are as awaited, for up to 20 s.
  std::string text;
  const auto scrape_until = [&](const std::function<bool(const std::set<std::string>&)>& done) {
    for (int attempt = 0; attempt < 100; ++attempt) {
      text = serve.scrape();
      if (done(cgroups_served(text))) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return false;
  };
  ASSERT_TRUE(scrape_until([&](const auto& names) { return names == std::set<std::string>{top->name()}; })) << text;
  {
    // Made while serving; c0's task spins.
    for (int i = 0; i < kMade; ++i) ASSERT_TRUE(std::filesystem::create_directory(child_directory(i)));
    Child busy({"sh", "-c", "while :; do :; done"}, serve_temp_path("tree-busy.log"));
    std::ofstream(child_directory(0) / "cgroup.procs") << busy.pid() << std::flush;
    ASSERT_TRUE(scrape_until([&](const auto& names) { return names.size() == kMade + 1; })) << text;
    for (int i = 0; i < kMade; ++i) EXPECT_EQ(cgroups_served(text).count(child_name(i)), 1u) << child_name(i);
    // The spinner's cgroup ran, as -G counts it: some share of up to one CPU
    // (scraped until an interval shows it, on a busy machine).
    const SeriesKey busy_cpus{"topdown_info_value",
                              {{"metric", "CPUs_Utilized"},
                               {"unit", "CPUs"},
                               {"scope", "cgroup"},
                               {"cgroup", child_name(0)},
                               {"model", "software"}}};
    ASSERT_TRUE(scrape_until([&](const auto&) { return parse_exposition(text).count(busy_cpus) == 1; })) << text;
    const double used = parse_exposition(text).at(busy_cpus);
    EXPECT_GT(used, 0) << text;
    EXPECT_LT(used, 1.05) << text;
    // The top holds its children's tasks too.
    SeriesKey top_cpus = busy_cpus;
    top_cpus.second["cgroup"] = top->name();
    EXPECT_EQ(parse_exposition(text).count(top_cpus), 1u) << text;
    busy.signal(SIGKILL);
    busy.wait(std::chrono::seconds(10));
  }
  // Removed while serving: gone from the series within a few intervals, the top kept.
  for (int i = 0; i < kMade; ++i) {
    std::error_code error;
    for (int attempt = 0; attempt < 50 && !std::filesystem::remove(child_directory(i), error); ++attempt) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));  // emptied a moment after its task is reaped
    }
    ASSERT_FALSE(std::filesystem::exists(child_directory(i))) << error.message();
  }
  EXPECT_TRUE(scrape_until([&](const auto& names) { return names == std::set<std::string>{top->name()}; })) << text;
  serve.child.signal(SIGTERM);
  EXPECT_EQ(serve.child.wait(std::chrono::seconds(10)), 0) << slurp(serve.log);
}

INSTANTIATE_TEST_SUITE_P(Ways, ServeCliCgroupsUnder, ::testing::ValuesIn(kCgroupCountingWays));

TEST(ServeCli, CgroupsUnderAndCgroupAreRefusedTogether) {
  const CommandResult r =
      run_command(std::string(TOPDOWN_BIN) + " serve --model " + kSoftwareModel + " --cgroups-under / --cgroup /");
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_NE(r.err.find("excludes --cgroup"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(ServeCli, AMissingCgroupIsOneLine) {
  const CommandResult r =
      run_command(std::string(TOPDOWN_BIN) + " serve --model " + kSoftwareModel + " --cgroup /no/such/cgroup");
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_NE(r.err.find("topdown: --cgroup '/no/such/cgroup': no such cgroup under /"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(ServeCli, ProcessesAreServedUntilTheyEnd) {
  // Busy for two seconds, and then ends.
  Child busy({"sh", "-c", "end=$(($(date +%s) + 2)); while [ $(date +%s) -lt $end ]; do :; done"},
             serve_temp_path("busy.log"));
  ServeProcess serve({"-I", "100", "-p", std::to_string(busy.pid())});
  ASSERT_TRUE(serve.ready()) << slurp(serve.log);
  const std::map<SeriesKey, double> series = parse_exposition(serve.scrape());
  const SeriesKey on_cpu{"topdown_node_ratio",
                         {{"node", "On_CPU"}, {"level", "1"}, {"scope", "processes"}, {"model", "software"}}};
  ASSERT_TRUE(series.count(on_cpu)) << serve.scrape();
  SeriesKey off_cpu = on_cpu;
  off_cpu.second["node"] = "Off_CPU";
  // How much of one 100 ms interval the spinner got depends on the machine's
  // load (1% at a load of 12 on two CPUs); that it ran at all does not.
  EXPECT_GE(series.at(on_cpu), 0);
  EXPECT_NEAR(series.at(on_cpu) + series.at(off_cpu), 1, 1e-9);
  const SeriesKey task_clock{"topdown_events_total",
                             {{"event", "task-clock"}, {"scope", "processes"}, {"model", "software"}}};
  ASSERT_TRUE(series.count(task_clock)) << serve.scrape();
  EXPECT_GT(series.at(task_clock), 0);
  EXPECT_EQ(serve.child.wait(std::chrono::seconds(10)), 0) << slurp(serve.log);
}

// The ctest size of bench/serve_load_bench: counting goes on, nothing leaks.
TEST(ServeCli, LoadDoesNotStopCountingNorLeak) {
  if (!may_count_every_cpu()) GTEST_SKIP() << "counting whole CPUs is not permitted for this user";
  // A tick counts as lost when it comes half a period late: 125 ms here, on a machine that may be busy.
  ServeProcess serve({"-I", "250"});
  ASSERT_TRUE(serve.ready()) << slurp(serve.log);
  load(serve.port, 50, 2, 5, 0);  // warm up: threads and buffers exist
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const long fds_before = open_fds(serve.child.pid());
  const long rss_before = proc_status_field(serve.child.pid(), "VmRSS");
  const std::map<SeriesKey, double> before = parse_exposition(serve.scrape());
  const auto start = std::chrono::steady_clock::now();
  const LoadResult result = load(serve.port, 1000, 10, 100, 2);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::this_thread::sleep_for(std::chrono::seconds(6));  // the slow connections time out
  const std::map<SeriesKey, double> after = parse_exposition(serve.scrape());
  EXPECT_EQ(result.failed, 0u);
  EXPECT_EQ(result.latencies_s.size(), 1000u);
  EXPECT_EQ(after.at({"topdown_errors_total", {}}), 0);
  // Every timer period is an interval or a lost one. A machine busy with
  // other work delays a few ticks past half a period (1 to 3 of 40 at a load
  // of 12 on two CPUs); requests, which never wait on counting, delay none,
  // so most periods stay intervals.
  const auto delta = [&](const char* series) { return after.at({series, {}}) - before.at({series, {}}); };
  const double intervals = delta("topdown_intervals_total");
  const double lost = delta("topdown_lost_intervals_total");
  EXPECT_GE(intervals + lost, (seconds + 6) * 4 * 0.9);
  EXPECT_LT(lost, intervals / 4);
  EXPECT_LE(open_fds(serve.child.pid()), fds_before + 1);
  // (AddressSanitizer's quarantine holds freed memory, so its RSS grows
  // without a leak; LeakSanitizer checks for leaks at exit instead.)
  if (!kAddressSanitizer) {
    EXPECT_LE(proc_status_field(serve.child.pid(), "VmRSS"), rss_before + 4096) << "kB";
  }
  std::printf("1000 scrapes from 10 clients in %.2f s: p99 %.1f ms\n", seconds, result.p99_s() * 1e3);
  serve.child.signal(SIGTERM);
  EXPECT_EQ(serve.child.wait(std::chrono::seconds(10)), 0) << slurp(serve.log);
}

}  // namespace
}  // namespace topdown::testing
