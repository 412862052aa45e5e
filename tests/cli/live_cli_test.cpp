// topdown stat over time and across the machine (-I, --columns, -a, -p,
// --no-multiplex, signals), end to end. The software-event test model counts
// without a PMU; the hardware model's tests skip on machines without one.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../support/temp_tree.h"
#include "aggregate/aggregate.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;
const std::string kStat = kTopdown + " stat --model " + std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/software.model";
// Busy in user space for two seconds, then timeout exits with 124.
const std::string kBusyTwoSeconds = "timeout 2 sh -c 'while :; do :; done'";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<nlohmann::json> json_lines(const std::string& text) {
  std::vector<nlohmann::json> records;
  for (const auto& line : lines_of(text)) records.push_back(nlohmann::json::parse(line));
  return records;
}

const nlohmann::json* event_of(const nlohmann::json& record, const std::string& name) {
  for (const auto& event : record["events"]) {
    if (event["name"] == name) return &event;
  }
  return nullptr;
}

// Root, or kernel.perf_event_paranoid <= 0: needed to count whole CPUs.
bool system_wide_permitted() { return run_command(kStat + " -a -- true").exit_code == 0; }

TEST(LiveCli, IntervalJsonLinesAddUpToTheSummary) {
  auto r = run_command(kStat + " -I 200 --json -- " + kBusyTwoSeconds);
  ASSERT_EQ(r.exit_code, 124) << r.err;  // the workload's status
  const std::vector<nlohmann::json> records = json_lines(r.err);
  ASSERT_GE(records.size(), 10u);  // about ten intervals and the summary
  ASSERT_LE(records.size(), 13u);
  const nlohmann::json& summary = records.back();
  EXPECT_TRUE(summary["time"].is_null());
  EXPECT_EQ(summary["exit_code"], 124);
  double task_clock = 0;
  double previous_time = 0;
  for (size_t i = 0; i + 1 < records.size(); ++i) {
    const double time = records[i]["time"].get<double>();
    EXPECT_GT(time, previous_time);
    EXPECT_NEAR(records[i]["elapsed_s"].get<double>(), time - previous_time, 1e-6);
    previous_time = time;
    EXPECT_TRUE(records[i]["exit_code"].is_null());
    task_clock += (*event_of(records[i], "task-clock"))["value"].get<double>();
  }
  EXPECT_DOUBLE_EQ(task_clock, (*event_of(summary, "task-clock"))["value"].get<double>());
  EXPECT_DOUBLE_EQ(previous_time, summary["elapsed_s"].get<double>());
}

TEST(LiveCli, ColumnsPrintOneLinePerInterval) {
  auto r = run_command(kStat + " -I 200 --columns -- " + kBusyTwoSeconds);
  ASSERT_EQ(r.exit_code, 124) << r.err;
  const std::vector<std::string> lines = lines_of(r.err);
  ASSERT_GE(lines.size(), 12u) << r.err;
  EXPECT_EQ(lines.front(), "#     time  On_CPU   Off_CPU   Bottleneck");
  const double first_time = std::stod(lines[1].substr(0, 10));  // the tick may come late on a busy machine
  EXPECT_GE(first_time, 0.2) << r.err;
  EXPECT_LT(first_time, 0.4) << r.err;
  EXPECT_EQ(lines.back().substr(0, 10), "     total") << r.err;
  for (size_t i = 1; i < lines.size(); ++i) EXPECT_NE(lines[i].find('%'), std::string::npos) << lines[i];
}

TEST(LiveCli, IntervalCsvHasATimeColumn) {
  auto r = run_command(kStat + " -I 200 --csv -- sleep 0.5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = lines_of(r.err);
  ASSERT_GE(lines.size(), 6u);
  EXPECT_EQ(lines[0].rfind("time,kind,name,level,", 0), 0u);
  // The first tick, a little late on a busy machine: never early.
  const double first_time = std::stod(lines[1].substr(0, lines[1].find(',')));
  EXPECT_GE(first_time, 0.2) << lines[1];
  EXPECT_LT(first_time, 0.4) << lines[1];
  EXPECT_EQ(lines.back().rfind(",info,Context_Switches_Per_Second,", 0), 0u) << "the summary's time is empty";
  EXPECT_EQ(std::count_if(lines.begin(), lines.end(), [](const std::string& l) { return l.rfind("time,", 0) == 0; }),
            1);
}

TEST(LiveCli, IntervalTextHasTimeHeadingsAndTheWholeRun) {
  auto r = run_command(kStat + " -I 200 -- sleep 0.5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(r.err.rfind("=== time 0.", 0), 0u) << r.err;
  const double first_time = std::stod(r.err.substr(9));
  EXPECT_GE(first_time, 0.2) << r.err;
  EXPECT_LT(first_time, 0.4) << r.err;
  EXPECT_NE(r.err.find("\n=== whole run ===\ntopdown: Software events (test model) (software), sleep 0.5, 0.5"),
            std::string::npos)
      << r.err;
}

TEST(LiveCli, SigintStopsSystemWideCountingAndPrintsTheSummary) {
  if (!system_wide_permitted()) GTEST_SKIP() << "counting whole CPUs is not permitted for this user";
  // A background command of a non-interactive shell ignores SIGINT unless it
  // installs a handler, as topdown does while counting.
  // The signal comes once the header and two intervals are written, however
  // slowly topdown starts (at most 20 s of waiting).
  const std::string out = ::testing::TempDir() + "/sigint-" + std::to_string(::getpid()) + ".txt";
  auto r = run_command("sh -c ': >" + out + "; " + kStat + " -a -I 100 --columns 2>" + out +
                       " & pid=$!; i=0; while [ $i -lt 400 ] && [ $(wc -l <" + out +
                       ") -lt 3 ]; do sleep 0.05; i=$((i+1)); done; kill -INT $pid; wait $pid; s=$?; cat " + out +
                       " >&2; rm -f " + out + "; exit $s'");
  EXPECT_EQ(r.exit_code, 130) << r.err;
  const std::vector<std::string> lines = lines_of(r.err);
  ASSERT_GE(lines.size(), 5u) << r.err;
  EXPECT_EQ(lines.front().rfind("#     time", 0), 0u);
  EXPECT_EQ(lines.back().substr(0, 10), "     total") << r.err;
}

TEST(LiveCli, SigtermIsForwardedToTheWorkloadAndReported) {
  // The signal comes after two intervals were written, however slowly
  // topdown starts (a sanitized build, a busy machine): never before it
  // counts. At most 20 s of waiting.
  const std::string out = ::testing::TempDir() + "/sigterm-" + std::to_string(::getpid()) + ".json";
  // The file exists before the loop reads it: the shell's own complaint
  // about a missing file would land in the report stream.
  auto r = run_command("sh -c ': >" + out + "; " + kStat + " -I 100 --json -- sleep 20 2>" + out +
                       " & pid=$!; i=0; while [ $i -lt 400 ] && [ $(wc -l <" + out +
                       ") -lt 2 ]; do sleep 0.05; i=$((i+1)); done; kill -TERM $pid; wait $pid; s=$?; cat " + out +
                       " >&2; rm -f " + out + "; exit $s'");
  EXPECT_EQ(r.exit_code, 128 + 15) << r.err;
  const std::vector<nlohmann::json> records = json_lines(r.err);
  ASSERT_GE(records.size(), 3u);
  const nlohmann::json& summary = records.back();
  EXPECT_TRUE(summary["time"].is_null());
  EXPECT_EQ(summary["signal"], 15);
  EXPECT_EQ(summary["exit_code"], 143);
  EXPECT_NE(summary["warnings"].dump().find("the workload was killed by SIGTERM"), std::string::npos);
  EXPECT_LT(summary["elapsed_s"].get<double>(), 10.0);
}

TEST(LiveCli, AWorkloadKilledByASignalIsReportedAndItsStatusKept) {
  auto r = run_command(kStat + " -- sh -c 'kill -KILL $$'");
  EXPECT_EQ(r.exit_code, 128 + 9) << r.err;
  EXPECT_NE(r.err.find(", killed by SIGKILL\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("warning: the workload was killed by SIGKILL; the counts cover it until then"),
            std::string::npos);
  EXPECT_EQ(run_command(kStat + " -- sh -c 'exit 3'").exit_code, 3);
}

// The child spins for half a second only once topdown holds perf events on
// it, so the count and the time cover that half second however long topdown
// takes to start (a sanitized build on a busy machine: 0.2 s and more).
TEST(LiveCli, AttachesToARunningProcessUntilItExits) {
  TempTree tree;
  const std::string go = tree.root().string() + "/go";
  const std::string out = tree.root().string() + "/stat.json";
  const auto script =
      tree.write("attach.sh", "sh -c 'until [ -e " + go +
                                  " ]; do sleep 0.01; done; "
                                  "timeout 0.5 sh -c \"while :; do :; done\"' & pid=$!\n" +
                                  kStat + " --json -p $pid 2>" + out + " & stat=$!\n" +
                                  "until ls -l /proc/$stat/fd 2>/dev/null | grep -q perf_event; do sleep 0.01; done\n"
                                  "touch " +
                                  go +
                                  "\n"
                                  "wait $stat; status=$?; cat " +
                                  out + " >&2; echo $pid >&2; exit $status\n");
  auto r = run_command("sh " + script.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto newline = r.err.rfind('\n', r.err.size() - 2);
  const nlohmann::json report = nlohmann::json::parse(r.err.substr(0, newline));
  const int pid = std::stoi(r.err.substr(newline + 1));
  EXPECT_EQ(report["pids"], nlohmann::json::array({pid}));
  EXPECT_TRUE(report["command"].empty());
  EXPECT_GT(report["elapsed_s"].get<double>(), 0.45);
  // However little of a busy machine the child got (a sixth of a CPU at a load of 12).
  EXPECT_GT((*event_of(report, "task-clock"))["value"].get<double>(), 0.02e9) << "the busy child was counted";
}

TEST(LiveCli, AttachingToNoProcessFails) {
  auto r = run_command(kStat + " -p 999999999");
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_EQ(r.err, "topdown: no process 999999999; check the pid given with -p\n");
}

TEST(LiveCli, SystemWideCountsBothCpus) {
  if (!system_wide_permitted()) GTEST_SKIP() << "counting whole CPUs is not permitted for this user";
  auto r = run_command(kStat + " -a --json -- sleep 0.3");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json report = nlohmann::json::parse(r.err);
  const size_t cpus = report["cpus"].size();
  ASSERT_GE(cpus, 1u);
  // Every CPU's clock runs the whole time: the counters were enabled on each.
  const double enabled = (*event_of(report, "task-clock"))["time_enabled_ns"].get<double>();
  const double expected = static_cast<double>(cpus) * report["elapsed_s"].get<double>() * 1e9;
  EXPECT_NEAR(enabled, expected, 0.1 * expected);
  auto one = nlohmann::json::parse(run_command(kStat + " -C 0 --json -- sleep 0.3").err);
  EXPECT_EQ(one["cpus"], nlohmann::json::array({0}));
}

TEST(LiveCli, OfflineCpuIsAnError) {
  auto r = run_command(kStat + " -C 4096 -- true");
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_NE(r.err.find("topdown: -C 4096: CPU 4096 is not online"), std::string::npos) << r.err;
}

TEST(LiveCli, NoMultiplexRunsOncePerGroupAndSaysRunsVary) {
  // msr/tsc/ is on another PMU than the software events: a second group.
  if (!std::filesystem::exists("/sys/bus/event_source/devices/msr/events/tsc")) {
    GTEST_SKIP() << "no msr PMU with a tsc event on this machine";
  }
  auto r = run_command(kStat + " --kernel -e msr/tsc/ --no-multiplex --json -- true");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json report = nlohmann::json::parse(r.err);
  EXPECT_EQ(report["groups"], 2);
  EXPECT_EQ(report["multiplexed"], false);
  ASSERT_NE(event_of(report, "msr/tsc/"), nullptr);
  EXPECT_GT((*event_of(report, "msr/tsc/"))["value"].get<double>(), 0.0);
  EXPECT_GT((*event_of(report, "task-clock"))["value"].get<double>(), 0.0);
  EXPECT_NE(report["warnings"].dump().find("--no-multiplex ran the command 2 times, once per counter group"),
            std::string::npos)
      << report["warnings"];
}

TEST(LiveCli, NoMultiplexWithIntervalsIsRefused) {
  auto r = run_command(kStat + " --no-multiplex -I 100 -- true");
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_NE(r.err.find("--no-multiplex"), std::string::npos) << r.err;
}

TEST(LiveCli, NothingToCountIsAnError) {
  auto r = run_command(kStat);
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_EQ(r.err,
            "topdown: no command to measure; usage: topdown stat [options] -- CMD [ARGS...] (or -p PID, or -a)\n");
}

TEST(LiveCli, ModelFileAndCpuExcludeEachOther) {
  auto r = run_command(kStat + " --cpu zen5 -- true");
  EXPECT_EQ(r.exit_code, 125);
}

// The scope column of a per-unit CSV report, each unit once, in order.
std::vector<std::string> csv_scopes(const std::string& csv) {
  std::vector<std::string> scopes;
  for (const auto& line : lines_of(csv)) {
    const std::string scope = line.substr(0, line.find(','));
    if (scope != "scope" && (scopes.empty() || scopes.back() != scope)) scopes.push_back(scope);
  }
  return scopes;
}

// The value of one row ("node,On_CPU") of a per-unit CSV report, per scope.
std::map<std::string, double> csv_values(const std::string& csv, const std::string& row) {
  std::map<std::string, double> values;
  for (const auto& line : lines_of(csv)) {
    const size_t scope_end = line.find(',');
    if (line.compare(scope_end + 1, row.size() + 1, row + ",") != 0) continue;
    const size_t level_end = line.find(',', scope_end + row.size() + 2);
    // level, parent, vendor_name, then the value
    size_t value_start = level_end;
    for (int field = 0; field < 2; ++field) value_start = line.find(',', value_start + 1);
    values[line.substr(0, scope_end)] = std::stod(line.substr(value_start + 1));
  }
  return values;
}

std::vector<std::string> online_cpu_labels() {
  std::vector<std::string> labels;
  for (const int cpu : collect::select_cpus("")) labels.push_back("CPU" + std::to_string(cpu));
  return labels;
}

// The units sysfs's topology gives the online CPUs, in CPU order.
std::vector<std::string> topology_labels(bool by_core) {
  const aggregate::Topology topology = aggregate::Topology::read_sysfs();
  std::vector<std::string> labels;
  for (const int cpu : collect::select_cpus("")) {
    const aggregate::CpuPlace& place = *topology.find(cpu);
    const std::string socket = "S" + std::to_string(place.socket);
    const std::string label = by_core ? socket + "-C" + std::to_string(place.core) : socket;
    if (std::find(labels.begin(), labels.end(), label) == labels.end()) labels.push_back(label);
  }
  return labels;
}

TEST(LiveCliPerUnit, PerThreadSystemWideGivesOneUnitPerOnlineCpu) {
  if (!system_wide_permitted()) GTEST_SKIP() << "counting whole CPUs is not permitted for this user";
  auto r = run_command(kStat + " -a --per-thread --csv -- sleep 0.2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(lines_of(r.err).front().rfind("scope,kind,name,", 0), 0u);
  EXPECT_EQ(csv_scopes(r.err), online_cpu_labels()) << r.err;
  // Each CPU's clock runs all the time (the idle task's too): about 1 CPU each.
  for (const auto& [scope, cpus] : csv_values(r.err, "info,CPUs_Utilized")) {
    EXPECT_GT(cpus, 0.9) << scope;
    EXPECT_LT(cpus, 1.1) << scope;
  }
  EXPECT_EQ(csv_values(r.err, "info,CPUs_Utilized").size(), online_cpu_labels().size());
}

TEST(LiveCliPerUnit, PerCoreAndPerSocketFollowTheSysfsTopology) {
  if (!system_wide_permitted()) GTEST_SKIP() << "counting whole CPUs is not permitted for this user";
  auto cores = run_command(kStat + " -a --per-core --csv -- sleep 0.2");
  ASSERT_EQ(cores.exit_code, 0) << cores.err;
  EXPECT_EQ(csv_scopes(cores.err), topology_labels(true));
  auto sockets = run_command(kStat + " -C 0 --per-socket -- sleep 0.1");
  ASSERT_EQ(sockets.exit_code, 0) << sockets.err;
  EXPECT_EQ(sockets.err.rfind("=== " + topology_labels(false).front() + " ===\ntopdown: ", 0), 0u) << sockets.err;
}

TEST(LiveCliPerUnit, JsonIntervalsOfEachUnitAddUpToItsWholeRun) {
  if (!system_wide_permitted()) GTEST_SKIP() << "counting whole CPUs is not permitted for this user";
  auto r = run_command(kStat + " -a --per-socket -I 100 --json -- sleep 0.35");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> sockets = topology_labels(false);
  std::map<std::string, double> added;
  std::map<std::string, nlohmann::json> whole;
  for (const nlohmann::json& record : json_lines(r.err)) {
    const std::string scope = record["scope"];
    const double task_clock = (*event_of(record, "task-clock"))["value"].get<double>();
    EXPECT_GT(task_clock, 0.0) << scope;
    ASSERT_TRUE(record.contains("time")) << record.dump();
    if (!record["time"].is_null()) {
      added[scope] += task_clock;
    } else {
      whole[scope] = record;
    }
  }
  ASSERT_EQ(whole.size(), sockets.size()) << r.err;
  const aggregate::Topology topology = aggregate::Topology::read_sysfs();
  for (const std::string& socket : sockets) {
    const nlohmann::json& record = whole[socket];
    EXPECT_DOUBLE_EQ(added[socket], (*event_of(record, "task-clock"))["value"].get<double>()) << socket;
    // The socket's clock runs on each of its CPUs the whole time.
    size_t cpus = 0;
    for (const int cpu : collect::select_cpus("")) cpus += "S" + std::to_string(topology.find(cpu)->socket) == socket;
    const double expected = static_cast<double>(cpus) * record["elapsed_s"].get<double>() * 1e9;
    EXPECT_NEAR((*event_of(record, "task-clock"))["time_enabled_ns"].get<double>(), expected, 0.1 * expected);
  }
}

TEST(LiveCliPerUnit, PerThreadOfAnAttachedProcessNamesItsThreads) {
  // Attach once the child has become sleep (before its exec it is still a
  // copy of sh), and end it only once the first interval shows topdown
  // counting it: however busy the machine, the attach comes first.
  TempTree tree;
  const std::string out = tree.root().string() + "/stat.json";
  auto r = run_command("sh -c 'sleep 60 & pid=$!; until [ \"$(cat /proc/$pid/comm)\" = sleep ]; do :; done; " + kStat +
                       " --per-thread --json -I 100 -p $pid 2>" + out + " & until [ -s " + out +
                       " ]; do sleep 0.05; done; kill $pid; wait $!; status=$?; cat " + out +
                       " >&2; echo $pid >&2; exit $status'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> lines = lines_of(r.err);
  ASSERT_GE(lines.size(), 3u) << r.err;  // an interval or more, the whole run, the pid
  const nlohmann::json whole = nlohmann::json::parse(lines[lines.size() - 2]);
  EXPECT_TRUE(whole["time"].is_null()) << whole.dump();
  EXPECT_EQ(whole["scope"], "sleep-" + lines.back());  // sleep has one thread
  EXPECT_GT(whole["elapsed_s"].get<double>(), 0.09);
  for (size_t i = 0; i + 2 < lines.size(); ++i) EXPECT_EQ(nlohmann::json::parse(lines[i])["scope"], whole["scope"]);
}

TEST(LiveCliPerUnit, ViewsThatCannotBeSplitAreOneLineErrors) {
  for (const char* options :
       {"--per-core -- true", "--per-socket -- true", "--per-thread -- true", "-a --per-core --columns -- true"}) {
    auto r = run_command(kStat + " " + options);
    EXPECT_EQ(r.exit_code, 125) << options;
    EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
  }
  EXPECT_NE(run_command(kStat + " --per-core -- true").err.find("add -a (every CPU) or -C LIST"), std::string::npos);
  EXPECT_NE(run_command(kStat + " --per-thread -- true").err.find("-p PID"), std::string::npos);
}

// The hardware model of this machine, interval by interval.
TEST(LiveCli, HardwareIntervalsAddUpToTheSummary) {
  SKIP_WITHOUT_PMU();
  auto r = run_command(kTopdown + " stat -I 100 --json -- " + std::string(TOPDOWN_DEMO_BIN) + " alu");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<nlohmann::json> records = json_lines(r.err);
  ASSERT_GE(records.size(), 2u);
  const nlohmann::json& summary = records.back();
  for (const auto& event : summary["events"]) {
    double added = 0;
    for (size_t i = 0; i + 1 < records.size(); ++i)
      added += (*event_of(records[i], event["name"]))["value"].get<double>();
    EXPECT_DOUBLE_EQ(added, event["value"].get<double>()) << event["name"];
  }
}

}  // namespace
}  // namespace topdown::testing
