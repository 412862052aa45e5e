// topdown stat -G: each cgroup's tasks counted on every CPU and reported as
// their own whole (and, with --per-*, their own units), end to end with the
// software-event model in scratch cgroups.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../support/temp_tree.h"
#include "cgroup_counting_ways.h"
#include "collect/collect.h"
#include "run_command.h"
#include "support/scratch_cgroup.h"

namespace topdown::testing {
namespace {

const std::string kStat =
    std::string(TOPDOWN_BIN) + " stat --model " + std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/software.model";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

const nlohmann::json& event_of(const nlohmann::json& record, const std::string& name) {
  for (const auto& event : record["events"]) {
    if (event["name"] == name) return event;
  }
  throw std::out_of_range(name + " in " + record.dump());
}

const nlohmann::json& node_of(const nlohmann::json& record, const std::string& name) {
  for (const auto& node : record["nodes"]) {
    if (node["name"] == name) return node;
  }
  throw std::out_of_range(name + " in " + record.dump());
}

// Runs `stat_options` while a process spins in `busy`; stat's result.
// Runs stat while a spinner runs in `busy`; the nanoseconds the spinner was on
// a CPU meanwhile (its schedstat) go to `ran_file`.
CommandResult stat_beside_a_spinner(const ScratchCgroup& busy, const std::string& stat_options,
                                    const std::filesystem::path& ran_file) {
  const std::string spinner = "sh -c 'echo $$ > " + (busy.directory() / "cgroup.procs").string() +
                              " && exec sh -c \"while :; do :; done\"' & spinner=$!; sleep 0.2; ";
  const std::string on_cpu = "$(cut -d' ' -f1 /proc/$spinner/schedstat)";
  return run_command("(" + spinner + "before=" + on_cpu + "; " + kStat + " " + stat_options + "; status=$?; echo $((" +
                     on_cpu + " - before)) > " + ran_file.string() + "; kill $spinner; exit $status)");
}

double spinner_ran_ns(const std::filesystem::path& ran_file) { return std::stod(slurp(ran_file.string())); }

class CgroupStat : public ::testing::Test {
 protected:
  void SetUp() override {
    if (run_command(kStat + " -a -- true").exit_code != 0) {
      GTEST_SKIP() << "counting whole CPUs is not permitted for this user";
    }
    if (const auto refused = cgroup_counting_refused(way())) GTEST_SKIP() << *refused;
    std::string why_not;
    busy_ = ScratchCgroup::create("busy", why_not);
    idle_ = ScratchCgroup::create("idle", why_not);
    if (!busy_ || !idle_) GTEST_SKIP() << why_not;
  }

  // The --cgroup-counting way (CgroupStatWays), else the default.
  virtual std::string way() const { return "perf"; }

  std::unique_ptr<ScratchCgroup> busy_;
  std::unique_ptr<ScratchCgroup> idle_;
  TempTree tree_;
  const std::filesystem::path ran_file_ = tree_.root() / "spinner-ran-ns";
};

// Each way of counting cgroups gives what the spinner ran, within the same
// bounds, so the BPF way's values are the perf-event way's.
class CgroupStatWays : public CgroupStat, public ::testing::WithParamInterface<std::string> {
 protected:
  std::string way() const override { return GetParam(); }
};

TEST_P(CgroupStatWays, EachCgroupIsAReportOfItsOwnTasksOnEveryCpu) {
  const CommandResult r = stat_beside_a_spinner(
      *busy_,
      "--cgroup-counting " + way() + " -G " + busy_->name() + "," + idle_->name() + " -I 200 --json -- sleep 0.6",
      ran_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, nlohmann::json> whole;
  std::map<std::string, double> intervals_running_ns;
  for (const std::string& line : lines_of(r.err)) {
    const nlohmann::json record = nlohmann::json::parse(line);
    const std::string scope = record["scope"];
    if (record["time"].is_null()) {
      whole[scope] = record;
    } else {
      intervals_running_ns[scope] += event_of(record, "task-clock")["time_running_ns"].get<double>();
    }
  }
  ASSERT_EQ(whole.size(), 2u) << r.err;
  const nlohmann::json& busy = whole.at(busy_->name());
  const nlohmann::json& idle = whole.at(idle_->name());
  EXPECT_EQ(busy["cgroups"], (std::vector<std::string>{busy_->name(), idle_->name()}));
  EXPECT_EQ(busy["cpus"], collect::select_cpus(""));

  // One spinning process: up to one CPU for the 0.6 s, less on a busier
  // machine. A cgroup's software counter runs only while one of its tasks is
  // on that CPU and never shares a counter: exact, whatever the kernel says
  // of its enabled time (collect_tests: CollectCgroups.ASoftwareEvent...).
  // So it counts most of what the spinner ran while stat ran, never more.
  const double elapsed_ns = busy["elapsed_s"].get<double>() * 1e9;
  const double ran_ns = spinner_ran_ns(ran_file_);
  const nlohmann::json& busy_clock = event_of(busy, "task-clock");
  const double running_ns = busy_clock["time_running_ns"].get<double>();
  EXPECT_GT(running_ns, 0.5 * ran_ns) << busy.dump();
  EXPECT_LT(running_ns, 1.02 * ran_ns + 2e6) << busy.dump();
  EXPECT_LT(running_ns, 1.05 * elapsed_ns) << busy.dump();
  EXPECT_EQ(busy_clock["counted_share"].get<double>(), 1.0) << busy.dump();
  EXPECT_DOUBLE_EQ(intervals_running_ns[busy_->name()], running_ns);
  const nlohmann::json& on_cpu = node_of(busy, "On_CPU");
  EXPECT_TRUE(on_cpu["value"].is_number()) << busy.dump();
  EXPECT_NE(on_cpu["status"], "multiplexed") << busy.dump();

  // No task ran in `idle`: nothing enabled, nothing shown as a value.
  EXPECT_EQ(event_of(idle, "task-clock")["value"].get<double>(), 0);
  EXPECT_EQ(event_of(idle, "task-clock")["time_enabled_ns"].get<double>(), 0);
  EXPECT_TRUE(node_of(idle, "On_CPU")["value"].is_null()) << idle.dump();
  const auto warnings = idle["warnings"].get<std::vector<std::string>>();
  EXPECT_NE(
      std::find(warnings.begin(), warnings.end(),
                "cgroup " + idle_->name() + ": none of its tasks ran on the counted CPUs, so nothing was measured"),
      warnings.end())
      << idle.dump();
}

// A cgroup counts the tasks of the cgroups below it too (as perf -G does):
// the spinner in busy is in its parent's counts, and no more than there.
TEST_P(CgroupStatWays, AParentCountsTheTasksOfItsChildren) {
  const std::string parent = busy_->name().substr(0, busy_->name().rfind('/'));
  const CommandResult r = stat_beside_a_spinner(
      *busy_, "--cgroup-counting " + way() + " -G " + parent + "," + busy_->name() + " --json -- sleep 0.4", ran_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, double> running_ns;
  double elapsed_ns = 0;
  for (const std::string& line : lines_of(r.err)) {
    const nlohmann::json record = nlohmann::json::parse(line);
    running_ns[record["scope"]] = event_of(record, "task-clock")["time_running_ns"].get<double>();
    elapsed_ns = record["elapsed_s"].get<double>() * 1e9;
  }
  ASSERT_EQ(running_ns.size(), 2u) << r.err;
  const double ran_ns = spinner_ran_ns(ran_file_);
  // The spinner ran while stat counted (a quarter of the time at least, on
  // a busy machine); it also ran before, while a sanitized topdown started.
  EXPECT_GT(running_ns.at(busy_->name()), 0.25 * elapsed_ns) << r.err;
  // The parent holds the spinner (and the shells that started stat's
  // parts); its events are opened a moment apart from busy's.
  EXPECT_GT(running_ns.at(parent), 0.99 * running_ns.at(busy_->name())) << r.err;
  EXPECT_LT(running_ns.at(parent), 1.02 * ran_ns + 5e7) << r.err;
}

INSTANTIATE_TEST_SUITE_P(Ways, CgroupStatWays, ::testing::ValuesIn(kCgroupCountingWays));

TEST_F(CgroupStat, PerSocketSplitsEachCgroupIntoItsOwnSockets) {
  const std::string page = ::testing::TempDir() + "/cgroups-" + std::to_string(::getpid()) + ".html";
  const CommandResult r = stat_beside_a_spinner(
      *busy_, "-G " + busy_->name() + "," + idle_->name() + " --per-socket -C 0 --html " + page + " -- sleep 0.3",
      ran_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Text: each cgroup's whole, then its sockets (CPU 0 is on one socket).
  std::vector<std::string> headings;
  for (const std::string& line : lines_of(r.err)) {
    if (line.rfind("=== ", 0) == 0) headings.push_back(line);
  }
  ASSERT_EQ(headings.size(), 4u) << r.err;
  EXPECT_EQ(headings[0], "=== " + busy_->name() + " ===");
  EXPECT_EQ(headings[1].rfind("=== " + busy_->name() + " S", 0), 0u) << headings[1];
  EXPECT_EQ(headings[2], "=== " + idle_->name() + " ===");
  EXPECT_EQ(headings[3].rfind("=== " + idle_->name() + " S", 0), 0u) << headings[3];
  EXPECT_NE(r.err.find("CPUs 0 (cgroups " + busy_->name() + "," + idle_->name() + ")"), std::string::npos) << r.err;
  // The page's header says what was counted.
  const std::string html = slurp(page);
  std::remove(page.c_str());
  EXPECT_NE(html.find("the tasks of cgroups " + busy_->name() + "," + idle_->name() +
                      " (-G) on CPUs 0, user mode, one report per socket"),
            std::string::npos);
}

TEST_F(CgroupStat, NoMultiplexKeepsEachCgroupApart) {
  const CommandResult r = stat_beside_a_spinner(
      *busy_, "-G " + busy_->name() + "," + idle_->name() + " --no-multiplex --json -- sleep 0.3", ran_file_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = lines_of(r.err);
  ASSERT_EQ(lines.size(), 2u) << r.err;
  const nlohmann::json busy = nlohmann::json::parse(lines[0]);
  const nlohmann::json idle = nlohmann::json::parse(lines[1]);
  EXPECT_EQ(busy["scope"], busy_->name());
  // task-clock is counted in one of the runs (one per group): a real part of
  // what the spinner ran over all of them, never more.
  const double counted_ns = event_of(busy, "task-clock")["value"].get<double>();
  const double ran_ns = spinner_ran_ns(ran_file_);
  EXPECT_GT(counted_ns, 0.05 * ran_ns) << busy.dump();
  EXPECT_LT(counted_ns, 1.02 * ran_ns + 2e6) << busy.dump();
  EXPECT_EQ(idle["scope"], idle_->name());
  EXPECT_EQ(event_of(idle, "task-clock")["time_enabled_ns"].get<double>(), 0);
}

TEST(CgroupStatErrors, AMissingCgroupOrColumnsAreOneLine) {
  for (const auto& [options, message] : std::vector<std::pair<std::string, std::string>>{
           {"-G /no/such/cgroup -- true", "topdown: --cgroup '/no/such/cgroup': no such cgroup under /"},
           {"-G / -I 100 --columns -- true",
            "topdown: --columns shows one line per record, not one per cgroup; leave out --columns or -G"},
           {"-G / -r 3 -- true", "-p, -a, -C and -G count what runs already"},
           {"--cgroup-counting bpf -a -- true",
            "topdown: --cgroup-counting chooses how the cgroups of -G or --cgroups-under are counted; give one, or "
            "leave out --cgroup-counting"},
           {"--cgroup-counting ebpf -G / -- true", "--cgroup-counting: ebpf not in {bpf,perf}"}}) {
    const CommandResult r = run_command(kStat + " " + options);
    EXPECT_EQ(r.exit_code, 125) << options;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

}  // namespace
}  // namespace topdown::testing
