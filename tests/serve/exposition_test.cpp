#include "serve/exposition.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "support/tiny_model.h"

namespace topdown::serve {
namespace {

const std::vector<std::string> kNodes = {"Busy", "Busy_Memory", "Busy_Core", "Idle", "IPC"};

// CPU0 and CPU1 on socket 0, CPU2 on socket 1.
const aggregate::Topology kTopology({{0, {0, 0}}, {1, {1, 0}}, {2, {0, 1}}});

// One CPU's counts for an interval of 0.1 s: Busy = busy / 4000 slots.
counts::Sample cpu_sample(double busy_slots, bool with_stalls = true) {
  counts::Sample s;
  s.events["cycles"] = {1000, 100, 100};
  s.events["busy_slots"] = {busy_slots, 100, 100};
  s.events["idle_slots"] = {4000 - busy_slots, 100, 100};
  if (with_stalls) {
    s.events["mem_stalls"] = {300, 100, 100};
    s.events["all_stalls"] = {400, 100, 100};
  }
  s.events["instructions"] = {2500, 100, 100};
  s.duration_s = 0.1;
  return s;
}

std::vector<counts::Place> places(const std::vector<double>& busy_per_cpu, bool with_stalls = true) {
  std::vector<counts::Place> result;
  for (size_t cpu = 0; cpu < busy_per_cpu.size(); ++cpu) {
    result.push_back({"CPU" + std::to_string(cpu), cpu_sample(busy_per_cpu[cpu], with_stalls)});
  }
  return result;
}

counts::Sample sum_of(const std::vector<counts::Place>& places) {
  counts::Sample sum;
  for (const counts::Place& place : places) counts::add_scaled(sum, place.sample);
  sum.duration_s = places.front().sample.duration_s;
  return sum;
}

struct Fixture {
  model::Model model = testing::tiny_model();
  eval::Evaluator evaluator{model, kNodes, eval::Options{}};
  SnapshotBuilder builder{evaluator, ScopePlan{"machine", aggregate::View::Socket, &kTopology, false}, "tiny",
                          report::RunInfo{}, std::chrono::milliseconds(100)};

  std::shared_ptr<const Snapshot> interval(double time_s, const std::vector<counts::Place>& cpus) {
    return builder.add(time_s, sum_of(cpus), cpus);
  }
};

bool has_line(const std::string& text, const std::string& line) {
  return text.find("\n" + line + "\n") != std::string::npos || text.rfind(line + "\n", 0) == 0;
}

// What `promtool check metrics` says of `text` (empty when it accepts it),
// with its exit status when it failed.
std::string promtool_complaints(const std::string& text) {
  const std::string path = ::testing::TempDir() + "/exposition-" + std::to_string(::getpid()) + ".prom";
  std::ofstream(path) << text;
  const std::string output = path + ".out";
  const int status = std::system(("promtool check metrics <" + path + " >" + output + " 2>&1").c_str());
  std::ifstream in(output);
  std::string complaints((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (status != 0) complaints += "exit status " + std::to_string(status);
  return complaints;
}

TEST(Exposition, NodeRatiosPerScopeWithTheirLabels) {
  Fixture f;
  const std::string text = write_exposition(*f.interval(0.1, places({2000, 1000, 3000})));
  // The machine: 6000 of 12000 slots; socket 0: 3000 of 8000; socket 1: 3000 of 4000.
  EXPECT_TRUE(has_line(text, R"(topdown_node_ratio{node="Busy",level="1",parent="",scope="machine",model="tiny"} 0.5)"))
      << text;
  EXPECT_TRUE(has_line(
      text, R"(topdown_node_ratio{node="Busy",level="1",parent="",scope="socket",socket="0",model="tiny"} 0.375)"))
      << text;
  EXPECT_TRUE(has_line(
      text, R"(topdown_node_ratio{node="Idle",level="1",parent="",scope="socket",socket="1",model="tiny"} 0.25)"))
      << text;
  // Busy_Memory = Busy * 300 / 400.
  EXPECT_TRUE(has_line(
      text, R"(topdown_node_ratio{node="Busy_Memory",level="2",parent="Busy",scope="machine",model="tiny"} 0.375)"))
      << text;
  EXPECT_TRUE(
      has_line(text, R"(topdown_info_value{metric="IPC",unit="instructions/cycle",scope="machine",model="tiny"} 2.5)"))
      << text;
  EXPECT_TRUE(
      has_line(text, R"(topdown_node_counted_ratio{node="Busy",level="1",parent="",scope="machine",model="tiny"} 1)"))
      << text;
  EXPECT_TRUE(has_line(text, "# TYPE topdown_node_ratio gauge")) << text;
  EXPECT_TRUE(has_line(text, "# TYPE topdown_events_total counter")) << text;
}

TEST(Exposition, BottleneckIsOneLabelledGaugePerScope) {
  Fixture f;
  const std::string text = write_exposition(*f.interval(0.1, places({3600, 3600, 400})));
  // Busy 0.9 on socket 0, Busy_Memory (0.675) is the deepest node over its threshold.
  EXPECT_TRUE(
      has_line(text, R"(topdown_bottleneck{node="Busy_Memory",level="2",scope="socket",socket="0",model="tiny"} 1)"))
      << text;
  // Socket 1: Idle 0.9, which has no children.
  EXPECT_TRUE(has_line(text, R"(topdown_bottleneck{node="Idle",level="1",scope="socket",socket="1",model="tiny"} 1)"))
      << text;
}

// Busy_Memory = 0.9 * 600 / 400 = 1.35 is out of range: omitted, so it is
// not the bottleneck either (eval's bottleneck): Busy, the deepest served node.
TEST(Exposition, TheBottleneckIsAServedNode) {
  Fixture f;
  std::vector<counts::Place> cpus = places({3600});
  cpus[0].sample.events["mem_stalls"] = {600, 100, 100};
  const auto snapshot = f.interval(0.1, cpus);
  ASSERT_EQ(snapshot->scopes.front().report.evaluation.bottleneck()->node->name, "Busy_Memory");
  const std::string text = write_exposition(*snapshot);
  EXPECT_TRUE(has_line(
      text,
      R"(topdown_node_omitted{node="Busy_Memory",level="2",parent="Busy",reason="out_of_range",scope="machine",model="tiny"} 1)"))
      << text;
  EXPECT_TRUE(has_line(text, R"(topdown_bottleneck{node="Busy",level="1",scope="machine",model="tiny"} 1)")) << text;
  EXPECT_EQ(text.find(R"(topdown_bottleneck{node="Busy_Memory")"), std::string::npos) << text;
}

TEST(Exposition, UntrustworthyNodesAreOmittedWithTheReason) {
  Fixture f;
  const std::string text = write_exposition(*f.interval(0.1, places({2000, 2000, 2000}, /*with_stalls=*/false)));
  EXPECT_EQ(text.find(R"(topdown_node_ratio{node="Busy_Memory")"), std::string::npos) << text;
  EXPECT_EQ(text.find(R"(topdown_node_ratio{node="Busy_Core")"), std::string::npos) << text;
  EXPECT_TRUE(has_line(
      text,
      R"(topdown_node_omitted{node="Busy_Memory",level="2",parent="Busy",reason="not_available",scope="machine",model="tiny"} 1)"))
      << text;
  EXPECT_TRUE(has_line(text, R"(topdown_node_ratio{node="Busy",level="1",parent="",scope="machine",model="tiny"} 0.5)"))
      << text;

  eval::NodeResult unreliable;
  unreliable.value = 0.4;
  unreliable.unreliable = true;
  EXPECT_EQ(omission_reason(unreliable), "unreliable");
  unreliable.unreliable = false;
  unreliable.out_of_range = true;
  EXPECT_EQ(omission_reason(unreliable), "out_of_range");
  unreliable.out_of_range = false;
  unreliable.multiplexed = true;  // an estimate, exported with its counted share
  EXPECT_EQ(omission_reason(unreliable), "");
}

TEST(Exposition, EventCountersAddUpOverIntervals) {
  Fixture f;
  f.interval(0.1, places({2000, 1000, 3000}));
  const std::string text = write_exposition(*f.interval(0.2, places({1000, 1000, 1000})));
  EXPECT_TRUE(has_line(text, R"(topdown_events_total{event="busy_slots",scope="machine",model="tiny"} 9000)")) << text;
  EXPECT_TRUE(has_line(text, R"(topdown_events_total{event="busy_slots",scope="socket",socket="1",model="tiny"} 4000)"))
      << text;
  EXPECT_TRUE(has_line(text, R"(topdown_event_counted_ratio{event="cycles",scope="machine",model="tiny"} 1)")) << text;
  EXPECT_TRUE(has_line(text, "topdown_intervals_total 2")) << text;
  EXPECT_TRUE(has_line(text, "topdown_interval_end_seconds 0.2")) << text;
  EXPECT_TRUE(has_line(text, "topdown_interval_seconds 0.1")) << text;
}

TEST(Exposition, LateIntervalsCountTheLostPeriods) {
  Fixture f;
  std::vector<counts::Place> cpus = places({2000, 1000, 3000});
  counts::Sample late = sum_of(cpus);
  late.duration_s = 0.31;  // three periods of 100 ms in one interval
  const std::string text = write_exposition(*f.builder.add(0.31, late, cpus));
  EXPECT_TRUE(has_line(text, "topdown_lost_intervals_total 2")) << text;
}

TEST(Exposition, AnIntervalThatCannotBeSplitIsAnErrorAndKeepsTheLastValues) {
  Fixture f;
  f.interval(0.1, places({2000, 1000, 3000}));
  std::vector<counts::Place> unknown_cpu = places({2000, 1000, 3000, 1000});  // CPU3 is not in the topology
  const std::shared_ptr<const Snapshot> snapshot = f.builder.add(0.2, sum_of(unknown_cpu), unknown_cpu);
  const std::string text = write_exposition(*snapshot);
  EXPECT_TRUE(has_line(text, "topdown_errors_total 1")) << text;
  EXPECT_NE(snapshot->health.last_error.find("CPU3"), std::string::npos) << snapshot->health.last_error;
  EXPECT_TRUE(has_line(text, "topdown_interval_end_seconds 0.1")) << text;
  EXPECT_TRUE(has_line(text, R"(topdown_node_ratio{node="Busy",level="1",parent="",scope="machine",model="tiny"} 0.5)"))
      << text;
}

TEST(Exposition, EachCgroupIsAWholeOfItsOwnSplitIntoItsUnits) {
  const model::Model model = testing::tiny_model();
  const eval::Evaluator evaluator{model, kNodes, eval::Options{}};
  SnapshotBuilder builder{evaluator, ScopePlan{"machine", aggregate::View::Socket, &kTopology, true}, "tiny",
                          report::RunInfo{}, std::chrono::milliseconds(100)};
  std::vector<counts::Place> cpus;
  for (counts::Place place : places({2000, 1000, 3000})) cpus.emplace_back(place.label, place.sample, "/web");
  for (counts::Place place : places({400, 400, 400})) cpus.emplace_back(place.label, place.sample, "/batch \"x\"");
  for (counts::Place place : places({0, 0, 0})) {
    for (auto& [key, count] : place.sample.events) count = {0, 0, 0};  // ran no task
    cpus.emplace_back(place.label, place.sample, "/idle");
  }
  const std::shared_ptr<const Snapshot> snapshot = builder.add(0.1, sum_of(cpus), cpus);
  const std::string text = write_exposition(*snapshot);
  // /web: 6000 of 12000 slots; its socket 0: 3000 of 8000; /batch: 1200 of 12000.
  EXPECT_TRUE(has_line(
      text, R"(topdown_node_ratio{node="Busy",level="1",parent="",scope="cgroup",cgroup="/web",model="tiny"} 0.5)"))
      << text;
  EXPECT_TRUE(has_line(
      text,
      R"(topdown_node_ratio{node="Busy",level="1",parent="",scope="socket",socket="0",cgroup="/web",model="tiny"} 0.375)"))
      << text;
  EXPECT_TRUE(has_line(
      text,
      R"(topdown_node_ratio{node="Busy",level="1",parent="",scope="cgroup",cgroup="/batch \"x\"",model="tiny"} 0.1)"))
      << text;
  EXPECT_TRUE(has_line(
      text, R"(topdown_events_total{event="busy_slots",scope="socket",socket="1",cgroup="/web",model="tiny"} 3000)"))
      << text;
  EXPECT_TRUE(has_line(
      text,
      R"(topdown_node_omitted{node="Busy",level="1",parent="",reason="idle",scope="cgroup",cgroup="/idle",model="tiny"} 1)"))
      << text;
  // The sum over cgroups means nothing when one holds another: no machine series.
  EXPECT_EQ(text.find(R"(scope="machine")"), std::string::npos) << text;
  ASSERT_EQ(snapshot->scopes.size(), 9u);
  EXPECT_EQ(snapshot->scopes[0].report.scope, "/web");
  EXPECT_EQ(snapshot->scopes[1].report.scope, "/web S0");
  EXPECT_EQ(snapshot->scopes[3].report.scope, "/batch \"x\"");
}

TEST(Exposition, AKubernetesContainersSeriesNameItsPodContainerAndQos) {
  const model::Model model = testing::tiny_model();
  const eval::Evaluator evaluator{model, kNodes, eval::Options{}};
  SnapshotBuilder builder{evaluator, ScopePlan{"machine", aggregate::View::Socket, &kTopology, true}, "tiny",
                          report::RunInfo{}, std::chrono::milliseconds(100)};
  const std::string container(64, 'c');
  const std::string path =
      "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod0f2c7d4e_9a1b_4c3d_8e5f_6a7b8c9d0e1f.slice/"
      "cri-containerd-" +
      container + ".scope";
  std::vector<counts::Place> cpus;
  for (counts::Place place : places({2000, 1000, 3000})) cpus.emplace_back(place.label, place.sample, path);
  for (counts::Place place : places({400, 400, 400}))
    cpus.emplace_back(place.label, place.sample, "/system.slice/db.service");
  const std::string text = write_exposition(*builder.add(0.1, sum_of(cpus), cpus));
  const std::string pod =
      R"(pod_uid="0f2c7d4e-9a1b-4c3d-8e5f-6a7b8c9d0e1f",qos="besteffort",container_id=")" + container + R"(")";
  EXPECT_TRUE(has_line(text, R"(topdown_node_ratio{node="Busy",level="1",parent="",scope="cgroup",cgroup=")" + path +
                                 R"(",)" + pod + R"(,model="tiny"} 0.5)"))
      << text;
  EXPECT_TRUE(
      has_line(text, R"(topdown_node_ratio{node="Busy",level="1",parent="",scope="socket",socket="0",cgroup=")" + path +
                         R"(",)" + pod + R"(,model="tiny"} 0.375)"))
      << text;
  EXPECT_TRUE(has_line(
      text,
      R"(topdown_node_ratio{node="Busy",level="1",parent="",scope="cgroup",cgroup="/system.slice/db.service",systemd_unit="db.service",model="tiny"} 0.1)"))
      << text;
  if (std::system("command -v promtool >/dev/null 2>&1") == 0) {
    EXPECT_EQ(promtool_complaints(text), "");
  }
}

// Two core types: P-cores on CPUs 0 and 1 (socket 0), E-cores on CPU 2
// (socket 1), each evaluated with its own model; with `per_cgroup`, as
// serve -G counts them.
struct TwoCoreTypes {
  explicit TwoCoreTypes(bool per_cgroup = false)
      : builder{{CoreTypePart{&p_evaluator, "tiny", run_of("tiny"), "P-core", {}},
                 CoreTypePart{&e_evaluator, "tiny_e", run_of("tiny_e"), "E-core", {}}},
                ScopePlan{"machine", aggregate::View::Socket, &kTopology, per_cgroup},
                std::chrono::milliseconds(100)} {}

  model::Model p_model = testing::tiny_model();
  model::Model e_model = [] {
    model::Model model = testing::tiny_model();
    model.name = "tiny_e";
    return model;
  }();
  eval::Evaluator p_evaluator{p_model, kNodes, eval::Options{}};
  eval::Evaluator e_evaluator{e_model, kNodes, eval::Options{}};
  static report::RunInfo run_of(const std::string& model) {
    report::RunInfo run;
    run.model_name = model;
    return run;
  }
  SnapshotBuilder builder;

  std::shared_ptr<const Snapshot> interval(double time_s, double p0, double p1, double e2) {
    return interval(time_s, places({p0, p1, e2}));
  }
  // `cpus`: CPU0 and CPU1's places first, then CPU2's, for each cgroup.
  std::shared_ptr<const Snapshot> interval(double time_s, const std::vector<counts::Place>& cpus) {
    std::vector<counts::Place> p_cores;
    std::vector<counts::Place> e_cores;
    for (const counts::Place& place : cpus) (place.label == "CPU2" ? e_cores : p_cores).push_back(place);
    const counts::Sample p_sum = sum_of(p_cores);
    const counts::Sample e_sum = sum_of(e_cores);
    return builder.add(time_s, {{&p_sum, &p_cores}, {&e_sum, &e_cores}});
  }
};

TEST(Exposition, EachCoreTypesSeriesCarryItsTypeAndModel) {
  TwoCoreTypes f;
  const std::string text = write_exposition(*f.interval(0.1, 2000, 1000, 3000));
  // P-cores: (2000 + 1000) busy slots of 2 * 4000; E-cores: 3000 of 4000.
  EXPECT_TRUE(has_line(
      text,
      R"(topdown_node_ratio{node="Busy",level="1",parent="",scope="machine",core_type="P-core",model="tiny"} 0.375)"))
      << text;
  EXPECT_TRUE(has_line(
      text,
      R"(topdown_node_ratio{node="Busy",level="1",parent="",scope="machine",core_type="E-core",model="tiny_e"} 0.75)"))
      << text;
  EXPECT_TRUE(has_line(
      text,
      R"(topdown_node_ratio{node="Busy",level="1",parent="",scope="socket",socket="0",core_type="P-core",model="tiny"} 0.375)"))
      << text;
  EXPECT_TRUE(has_line(
      text,
      R"(topdown_node_ratio{node="Busy",level="1",parent="",scope="socket",socket="1",core_type="E-core",model="tiny_e"} 0.75)"))
      << text;
  // A type has the units of its own CPUs only.
  EXPECT_EQ(text.find(R"(socket="1",core_type="P-core")"), std::string::npos) << text;
  EXPECT_EQ(text.find(R"(socket="0",core_type="E-core")"), std::string::npos) << text;
  // Each type's events add up on their own: 2000 + 1000, then 3000 + 3000.
  const std::string later = write_exposition(*f.interval(0.2, 2000, 1000, 3000));
  EXPECT_TRUE(has_line(
      later, R"(topdown_events_total{event="busy_slots",scope="machine",core_type="P-core",model="tiny"} 6000)"))
      << later;
  EXPECT_TRUE(has_line(
      later, R"(topdown_events_total{event="busy_slots",scope="machine",core_type="E-core",model="tiny_e"} 6000)"))
      << later;
  // Each scope's report names its type (GET /report).
  const auto snapshot = f.interval(0.3, 2000, 1000, 3000);
  ASSERT_EQ(snapshot->scopes.size(), 4u);
  EXPECT_EQ(snapshot->scopes[0].report.core_type, "P-core");
  EXPECT_EQ(snapshot->scopes[0].report.run.model_name, "tiny");
  EXPECT_EQ(snapshot->scopes[2].report.core_type, "E-core");
  EXPECT_EQ(snapshot->scopes[2].report.run.model_name, "tiny_e");
  EXPECT_NEAR(*snapshot->scopes[2].report.evaluation.find("Busy")->value, 0.75, 1e-12);
}

TEST(Exposition, EachCgroupIsSplitByCoreType) {
  TwoCoreTypes f(true);
  std::vector<counts::Place> cpus;
  for (counts::Place place : places({2000, 1000, 3000})) cpus.emplace_back(place.label, place.sample, "/web");
  // /batch ran on the P-cores only.
  for (counts::Place place : places({400, 400, 0})) {
    if (place.label == "CPU2") {
      for (auto& [key, count] : place.sample.events) count = {0, 0, 0};
    }
    cpus.emplace_back(place.label, place.sample, "/batch");
  }
  const std::shared_ptr<const Snapshot> snapshot = f.interval(0.1, cpus);
  const std::string text = write_exposition(*snapshot);
  // /web: P-cores 3000 of 8000 slots, E-cores 3000 of 4000; /batch: P-cores 800 of 8000.
  EXPECT_TRUE(has_line(
      text,
      R"(topdown_node_ratio{node="Busy",level="1",parent="",scope="cgroup",cgroup="/web",core_type="P-core",model="tiny"} 0.375)"))
      << text;
  EXPECT_TRUE(has_line(
      text,
      R"(topdown_node_ratio{node="Busy",level="1",parent="",scope="cgroup",cgroup="/web",core_type="E-core",model="tiny_e"} 0.75)"))
      << text;
  EXPECT_TRUE(has_line(
      text,
      R"(topdown_node_ratio{node="Busy",level="1",parent="",scope="socket",socket="1",cgroup="/web",core_type="E-core",model="tiny_e"} 0.75)"))
      << text;
  EXPECT_TRUE(has_line(
      text,
      R"(topdown_node_ratio{node="Busy",level="1",parent="",scope="cgroup",cgroup="/batch",core_type="P-core",model="tiny"} 0.1)"))
      << text;
  EXPECT_TRUE(has_line(
      text,
      R"(topdown_node_omitted{node="Busy",level="1",parent="",reason="idle",scope="cgroup",cgroup="/batch",core_type="E-core",model="tiny_e"} 1)"))
      << text;
  EXPECT_EQ(text.find(R"(scope="machine")"), std::string::npos) << text;
  EXPECT_EQ(text.find(R"(socket="1",cgroup="/web",core_type="P-core")"), std::string::npos) << text;
  if (std::system("command -v promtool >/dev/null 2>&1") == 0) {
    EXPECT_EQ(promtool_complaints(text), "");
  }
}

TEST(Exposition, ACpuOfOneCoreTypeHasNoCoreTypeLabel) {
  Fixture f;
  const std::string text = write_exposition(*f.interval(0.1, places({2000, 1000, 3000})));
  EXPECT_EQ(text.find("core_type"), std::string::npos) << text;
  EXPECT_TRUE(f.interval(0.2, places({2000, 1000, 3000}))->scopes.front().report.core_type.empty());
}

TEST(Exposition, PromtoolAcceptsTheSeriesOfSeveralCoreTypes) {
  if (std::system("command -v promtool >/dev/null 2>&1") != 0) GTEST_SKIP() << "promtool is not installed";
  TwoCoreTypes f;
  f.interval(0.1, 2000, 1000, 3000);
  const std::string text = write_exposition(*f.interval(0.2, 3600, 400, 1000)) + write_scrape_duration(0.001);
  EXPECT_EQ(promtool_complaints(text), "");
}

TEST(Exposition, LabelValuesAndNumbersAreWrittenAsTheFormatSays) {
  EXPECT_EQ(escape_label_value("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
  EXPECT_EQ(escape_label_value("app-4242"), "app-4242");
  EXPECT_EQ(format_value(0.1), "0.1");
  EXPECT_EQ(format_value(1e21), "1e+21");
  EXPECT_EQ(format_value(12345678901.0), "12345678901");
  EXPECT_EQ(format_value(0.0), "0");
  EXPECT_EQ(format_value(-0.0), "-0");
  EXPECT_EQ(format_value(1.0), "1");
  EXPECT_EQ(format_value(-3.0), "-3");
  EXPECT_EQ(format_value(999999999999999.0), "999999999999999");
  EXPECT_EQ(format_value(1e16), "1e+16");
  EXPECT_EQ(format_value(1.0 / 0.0), "+Inf");
  EXPECT_EQ(format_value(-1.0 / 0.0), "-Inf");
  EXPECT_EQ(std::stod(format_value(2.0 / 3.0)), 2.0 / 3.0);  // round-trips exactly
}

TEST(Exposition, UnitLabelsNameTheirPlaces) {
  using aggregate::View;
  EXPECT_EQ(unit_labels(View::Socket, "S1", nullptr), (Labels{{"scope", "socket"}, {"socket", "1"}}));
  EXPECT_EQ(unit_labels(View::Core, "S0-C12", nullptr), (Labels{{"scope", "core"}, {"core", "12"}, {"socket", "0"}}));
  EXPECT_EQ(unit_labels(View::Thread, "CPU2", &kTopology),
            (Labels{{"scope", "cpu"}, {"cpu", "2"}, {"core", "0"}, {"socket", "1"}}));
  EXPECT_EQ(unit_labels(View::Thread, "my \"app\"-4242", nullptr),
            (Labels{{"scope", "thread"}, {"thread", "my \"app\"-4242"}}));
}

TEST(Exposition, EveryFamilyHasHelpAndTypeBeforeItsSamples) {
  Fixture f;
  const std::string text =
      write_exposition(*f.interval(0.1, places({2000, 1000, 3000}))) + write_scrape_duration(0.001);
  std::istringstream in(text);
  std::set<std::string> typed;
  std::string previous_family;
  std::set<std::string> finished;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("# TYPE ", 0) == 0) typed.insert(line.substr(7, line.find(' ', 7) - 7));
    if (line.empty() || line[0] == '#') continue;
    const std::string family = line.substr(0, line.find_first_of("{ "));
    EXPECT_TRUE(typed.count(family)) << line;
    if (family != previous_family) {
      EXPECT_FALSE(finished.count(family)) << "samples of " << family << " are not together";
      finished.insert(previous_family);
      previous_family = family;
    }
  }
  EXPECT_TRUE(typed.count("topdown_scrape_duration_seconds"));
}

TEST(Exposition, PromtoolAcceptsTheOutput) {
  if (std::system("command -v promtool >/dev/null 2>&1") != 0) GTEST_SKIP() << "promtool is not installed";
  Fixture f;
  f.interval(0.1, places({2000, 1000, 3000}, false));
  const std::string text = write_exposition(*f.interval(0.2, places({3600, 3600, 400}))) + write_scrape_duration(0.001);
  EXPECT_EQ(promtool_complaints(text), "");
}

// Arrow Lake-H's three core types: P-cores on CPUs 0 and 1 (socket 0),
// E-cores on CPU 2 and low-power E-cores on CPU 3 (socket 1), each with its
// own model.
TEST(Exposition, ThreeCoreTypesEachHaveTheirOwnSeries) {
  const aggregate::Topology four_cpus({{0, {0, 0}}, {1, {1, 0}}, {2, {0, 1}}, {3, {1, 1}}});
  const auto named = [](const std::string& name) {
    model::Model model = testing::tiny_model();
    model.name = name;
    return model;
  };
  const model::Model p_model = named("tiny");
  const model::Model e_model = named("tiny_e");
  const model::Model lp_model = named("tiny_lp");
  const eval::Evaluator p_evaluator{p_model, kNodes, eval::Options{}};
  const eval::Evaluator e_evaluator{e_model, kNodes, eval::Options{}};
  const eval::Evaluator lp_evaluator{lp_model, kNodes, eval::Options{}};
  SnapshotBuilder builder{{CoreTypePart{&p_evaluator, "tiny", TwoCoreTypes::run_of("tiny"), "P-core", {}},
                           CoreTypePart{&e_evaluator, "tiny_e", TwoCoreTypes::run_of("tiny_e"), "E-core", {}},
                           CoreTypePart{&lp_evaluator, "tiny_lp", TwoCoreTypes::run_of("tiny_lp"), "LPE-core", {}}},
                          ScopePlan{"machine", aggregate::View::Socket, &four_cpus, false},
                          std::chrono::milliseconds(100)};
  const std::vector<counts::Place> cpus = places({2000, 1000, 3000, 1000});
  const std::vector<counts::Place> p_cores(cpus.begin(), cpus.begin() + 2);
  const std::vector<counts::Place> e_cores(cpus.begin() + 2, cpus.begin() + 3);
  const std::vector<counts::Place> lp_cores(cpus.begin() + 3, cpus.end());
  const counts::Sample p_sum = sum_of(p_cores);
  const counts::Sample e_sum = sum_of(e_cores);
  const counts::Sample lp_sum = sum_of(lp_cores);
  const auto snapshot = builder.add(0.1, {{&p_sum, &p_cores}, {&e_sum, &e_cores}, {&lp_sum, &lp_cores}});
  const std::string text = write_exposition(*snapshot);
  // P-cores: 3000 busy slots of 8000; E-cores: 3000 of 4000; LP E-cores: 1000 of 4000.
  EXPECT_TRUE(has_line(
      text,
      R"(topdown_node_ratio{node="Busy",level="1",parent="",scope="machine",core_type="P-core",model="tiny"} 0.375)"))
      << text;
  EXPECT_TRUE(has_line(
      text,
      R"(topdown_node_ratio{node="Busy",level="1",parent="",scope="machine",core_type="E-core",model="tiny_e"} 0.75)"))
      << text;
  EXPECT_TRUE(has_line(
      text,
      R"(topdown_node_ratio{node="Busy",level="1",parent="",scope="machine",core_type="LPE-core",model="tiny_lp"} 0.25)"))
      << text;
  EXPECT_TRUE(has_line(
      text,
      R"(topdown_node_ratio{node="Busy",level="1",parent="",scope="socket",socket="1",core_type="LPE-core",model="tiny_lp"} 0.25)"))
      << text;
  EXPECT_EQ(text.find(R"(socket="0",core_type="LPE-core")"), std::string::npos) << text;
  EXPECT_TRUE(has_line(
      text, R"(topdown_events_total{event="busy_slots",scope="machine",core_type="LPE-core",model="tiny_lp"} 1000)"))
      << text;
  ASSERT_EQ(snapshot->scopes.size(), 6u);
  EXPECT_EQ(snapshot->scopes[4].report.core_type, "LPE-core");
  EXPECT_EQ(snapshot->scopes[4].report.run.model_name, "tiny_lp");
  EXPECT_NEAR(*snapshot->scopes[4].report.evaluation.find("Busy")->value, 0.25, 1e-12);
}

}  // namespace
}  // namespace topdown::serve
