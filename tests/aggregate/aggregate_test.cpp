#include <gtest/gtest.h>

#include "aggregate/aggregate.h"
#include "common/error.h"

namespace topdown::aggregate {
namespace {

counts::Count exact(double value) { return {value, 1000, 1000}; }

counts::Place cpu(int number, double cycles, double instructions) {
  counts::Place place{"CPU" + std::to_string(number), {}};
  place.sample.events["cycles"] = exact(cycles);
  place.sample.events["instructions"] = exact(instructions);
  return place;
}

// Two sockets; socket 0 has two cores with two threads each.
Topology two_sockets() { return Topology({{0, {0, 0}}, {1, {1, 0}}, {2, {0, 0}}, {3, {1, 0}}, {4, {0, 1}}}); }

std::vector<std::string> labels(const Aggregation& aggregation) {
  std::vector<std::string> out;
  for (const auto& unit : aggregation.units) out.push_back(unit.label);
  return out;
}

double value(const Unit& unit, const std::string& event) { return *unit.sample.find(event)->scaled(); }

TEST(KindOfLabel, RecognisesPerfsLabels) {
  EXPECT_EQ(kind_of_label("CPU12"), PlaceKind::Cpu);
  EXPECT_EQ(kind_of_label("S0-D0-C1"), PlaceKind::Core);
  EXPECT_EQ(kind_of_label("S1-C3"), PlaceKind::Core);
  EXPECT_EQ(kind_of_label("S0-D1"), PlaceKind::Die);
  EXPECT_EQ(kind_of_label("S1"), PlaceKind::Socket);
  EXPECT_EQ(kind_of_label("my-app-4242"), PlaceKind::Thread);
  EXPECT_EQ(kind_of_label("N0"), PlaceKind::Other);
  EXPECT_EQ(kind_of_label("S0-D0-L3-ID0"), PlaceKind::Other);
  EXPECT_EQ(kind_of_label("CPU"), PlaceKind::Other);
}

const std::vector<counts::Place> kFiveCpus{cpu(0, 100, 10), cpu(1, 200, 20), cpu(2, 300, 30), cpu(3, 400, 40),
                                           cpu(4, 500, 50)};

TEST(Aggregate, GlobalAddsEveryPlace) {
  const Aggregation all = aggregate(kFiveCpus, Request{});
  ASSERT_EQ(labels(all), std::vector<std::string>{"global"});
  EXPECT_DOUBLE_EQ(value(all.units[0], "cycles"), 1500);
  EXPECT_DOUBLE_EQ(value(all.units[0], "instructions"), 150);
}

TEST(Aggregate, PerThreadKeepsEachCpu) {
  Request request;
  request.view = View::Thread;
  const Aggregation threads = aggregate(kFiveCpus, request);  // no topology needed
  EXPECT_EQ(labels(threads), (std::vector<std::string>{"CPU0", "CPU1", "CPU2", "CPU3", "CPU4"}));
  EXPECT_DOUBLE_EQ(value(threads.units[3], "cycles"), 400);
}

// perf stat -A prints an uncore count on one CPU of each socket (CPU0 and
// CPU4 here); a hybrid part's core events on several CPUs of one socket.
std::vector<counts::Place> with_uncore_and_big_core_rows() {
  std::vector<counts::Place> places = kFiveCpus;
  places[0].sample.events["uncore_clock"] = exact(7000);
  places[4].sample.events["uncore_clock"] = exact(9000);
  places[0].sample.events["big_core_event"] = exact(11);
  places[2].sample.events["big_core_event"] = exact(13);
  return places;
}

TEST(Aggregate, EventsSomeCpusLackAreCandidatesForSocketCounts) {
  EXPECT_EQ(counted_once_per_socket(with_uncore_and_big_core_rows()),
            (std::set<std::string, std::less<>>{"big_core_event", "uncore_clock"}));
  EXPECT_TRUE(counted_once_per_socket(kFiveCpus).empty());
}

TEST(Aggregate, PerThreadAndPerCoreGiveEachUnitItsSocketsCount) {
  const Topology topology = two_sockets();
  Request request;
  request.view = View::Thread;
  request.topology = &topology;
  const Aggregation threads = aggregate(with_uncore_and_big_core_rows(), request);
  EXPECT_EQ(threads.socket_wide_events, (std::set<std::string, std::less<>>{"uncore_clock"}));
  EXPECT_DOUBLE_EQ(value(threads.units[3], "uncore_clock"), 7000);
  EXPECT_DOUBLE_EQ(value(threads.units[4], "uncore_clock"), 9000);
  // Counted by two CPUs of socket 0: the CPUs' own, not a socket's.
  EXPECT_EQ(threads.units[1].sample.find("big_core_event"), nullptr);
  EXPECT_DOUBLE_EQ(value(threads.units[2], "big_core_event"), 13);

  request.view = View::Core;
  const Aggregation cores = aggregate(with_uncore_and_big_core_rows(), request);
  EXPECT_EQ(labels(cores), (std::vector<std::string>{"S0-C0", "S0-C1", "S1-C0"}));
  EXPECT_DOUBLE_EQ(value(cores.units[1], "uncore_clock"), 7000);
  EXPECT_DOUBLE_EQ(value(cores.units[2], "uncore_clock"), 9000);
}

TEST(Aggregate, PerCoreAddsTheCoresThreads) {
  const Topology topology = two_sockets();
  Request request;
  request.view = View::Core;
  request.topology = &topology;
  const Aggregation cores = aggregate(kFiveCpus, request);
  EXPECT_EQ(labels(cores), (std::vector<std::string>{"S0-C0", "S0-C1", "S1-C0"}));
  EXPECT_DOUBLE_EQ(value(cores.units[0], "cycles"), 400);  // CPU0 + CPU2
  EXPECT_DOUBLE_EQ(value(cores.units[1], "cycles"), 600);  // CPU1 + CPU3
  EXPECT_DOUBLE_EQ(value(cores.units[2], "instructions"), 50);
  EXPECT_TRUE(cores.warnings.empty());
}

TEST(Aggregate, PerSocketAddsTheSocketsCpus) {
  const Topology topology = two_sockets();
  Request request;
  request.view = View::Socket;
  request.topology = &topology;
  const Aggregation sockets = aggregate(kFiveCpus, request);
  EXPECT_EQ(labels(sockets), (std::vector<std::string>{"S0", "S1"}));
  EXPECT_DOUBLE_EQ(value(sockets.units[0], "cycles"), 1000);
  EXPECT_DOUBLE_EQ(value(sockets.units[1], "cycles"), 500);
}

TEST(Aggregate, ACoreWithSomeOfItsCpusIsWarnedAbout) {
  const Topology topology = two_sockets();
  Request request;
  request.view = View::Core;
  request.topology = &topology;
  const Aggregation cores = aggregate({cpu(0, 100, 10), cpu(1, 200, 20), cpu(3, 400, 40)}, request);
  EXPECT_EQ(labels(cores), (std::vector<std::string>{"S0-C0", "S0-C1"}));
  ASSERT_EQ(cores.warnings.size(), 1u);
  EXPECT_NE(cores.warnings[0].find("S0-C0 (1 of 2)"), std::string::npos) << cores.warnings[0];
}

// Ice Lake's TOPDOWN.SLOTS:percore is the slots of both threads of the core.
TEST(Aggregate, CoreWideEventsPerThreadAreTheCoresSum) {
  const Topology topology = two_sockets();
  std::vector<counts::Place> places = kFiveCpus;
  for (size_t i = 0; i < places.size(); ++i) {
    places[i].sample.events["TOPDOWN.SLOTS:percore"] = {1000.0 * static_cast<double>(i + 1), 1000, 500};
  }
  Request request;
  request.view = View::Thread;
  request.topology = &topology;
  request.core_wide_events = {"TOPDOWN.SLOTS:percore"};
  const Aggregation threads = aggregate(places, request);
  // CPU0 and CPU2 share core 0: (1000 + 3000) scaled by 2.
  EXPECT_DOUBLE_EQ(value(threads.units[0], "TOPDOWN.SLOTS:percore"), 8000);
  EXPECT_DOUBLE_EQ(value(threads.units[2], "TOPDOWN.SLOTS:percore"), 8000);
  EXPECT_DOUBLE_EQ(value(threads.units[4], "TOPDOWN.SLOTS:percore"), 10000);
  EXPECT_DOUBLE_EQ(value(threads.units[0], "cycles"), 100);  // others stay the thread's

  request.topology = nullptr;
  EXPECT_THROW(aggregate(places, request), Error);
}

TEST(Aggregate, PerfsOwnCoreAndSocketRows) {
  std::vector<counts::Place> cores{{"S0-D0-C0", {}}, {"S0-D0-C1", {}}, {"S1-D0-C0", {}}};
  for (auto& place : cores) place.sample.events["cycles"] = exact(100);
  Request request;
  request.view = View::Core;
  EXPECT_EQ(labels(aggregate(cores, request)), (std::vector<std::string>{"S0-D0-C0", "S0-D0-C1", "S1-D0-C0"}));
  request.view = View::Socket;
  const Aggregation sockets = aggregate(cores, request);
  EXPECT_EQ(labels(sockets), (std::vector<std::string>{"S0", "S1"}));
  EXPECT_DOUBLE_EQ(value(sockets.units[0], "cycles"), 200);
  request.view = View::Thread;
  try {
    aggregate(cores, request);
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("--per-thread needs finer counts than per-core rows"), std::string::npos)
        << error.what();
  }
}

TEST(Aggregate, PerfsThreadRows) {
  std::vector<counts::Place> threads{{"app-41", {}}, {"app-42", {}}};
  for (auto& place : threads) place.sample.events["cycles"] = exact(100);
  Request request;
  request.view = View::Thread;
  EXPECT_EQ(labels(aggregate(threads, request)), (std::vector<std::string>{"app-41", "app-42"}));
  request.view = View::Core;
  EXPECT_THROW(aggregate(threads, request), Error);
}

TEST(Aggregate, CpusMissingFromTheTopologyAreAnError) {
  const Topology topology = two_sockets();
  Request request;
  request.view = View::Socket;
  request.topology = &topology;
  try {
    aggregate({cpu(9, 1, 1)}, request);
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("CPU9 is not in the CPU topology"), std::string::npos) << error.what();
  }
  request.topology = nullptr;
  EXPECT_THROW(aggregate(kFiveCpus, request), Error);
}

TEST(Aggregate, MixedPlacesAreAnError) {
  std::vector<counts::Place> mixed{cpu(0, 1, 1), {"S0", {}}};
  EXPECT_THROW(aggregate(mixed, Request{}), Error);
}

TEST(SplitByCgroup, EachCgroupKeepsItsOwnPlacesInOrderOfFirstSight) {
  std::vector<counts::Place> places;
  for (const auto& [number, cgroup] : std::vector<std::pair<int, std::string>>{
           {0, "/web"}, {0, "/web/worker"}, {1, "/web"}, {1, "/web/worker"}, {2, "/db"}}) {
    counts::Place place = cpu(number, 100.0 * (number + 1), 10);
    place.cgroup = cgroup;
    places.push_back(place);
  }
  const std::vector<CgroupPlaces> cgroups = split_by_cgroup(places);
  ASSERT_EQ(cgroups.size(), 3u);
  EXPECT_EQ(cgroups[0].cgroup, "/web");
  EXPECT_EQ(cgroups[1].cgroup, "/web/worker");
  EXPECT_EQ(cgroups[2].cgroup, "/db");
  ASSERT_EQ(cgroups[0].places.size(), 2u);
  EXPECT_EQ(cgroups[0].places[1].label, "CPU1");
  // A nested cgroup's counts are not added into the one that holds it.
  EXPECT_DOUBLE_EQ(*cgroups[0].whole.find("cycles")->scaled(), 300);
  EXPECT_EQ(cgroups[2].places.at(0).label, "CPU2");
  EXPECT_TRUE(split_by_cgroup({}).empty());
}

}  // namespace
}  // namespace topdown::aggregate
