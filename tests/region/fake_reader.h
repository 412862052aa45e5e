#pragma once
// Helpers shared by the region tests: a reader of synthetic counters and
// sessions built on it, so that everything above the PMU runs without one.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "region/open_session.h"
#include "region/session_impl.h"

namespace topdown::region::testing {

// Each read returns `current`, then advances it by `step` (and the times by
// `time_step`): one begin/end pair of a region adds exactly `step`.
class FakeReader final : public CounterReader {
 public:
  void read(Snapshot& out) override {
    out = current;
    out.valid = !fail;
    ++reads;
    for (std::size_t i = 0; i < kMaxValues; ++i) current.values[i] += step[i];
    current.time_enabled += time_step;
    current.time_running += running_step;
  }
  Reader kind() const override { return Reader::Read; }

  Snapshot current;
  std::array<uint64_t, kMaxValues> step{};
  uint64_t time_step = 1000;
  uint64_t running_step = 1000;
  bool fail = false;
  int reads = 0;
};

// An AMD Zen 5 with the counters of the project's machines: 5 of 6 count.
inline cpu::CpuInfo zen5_cpu() {
  cpu::CpuInfo cpu;
  cpu.id.vendor = cpu::Vendor::Amd;
  cpu.id.vendor_string = "AuthenticAMD";
  cpu.id.family = 0x1A;
  cpu.id.model = 0x44;
  cpu.id.brand = "AMD EPYC (test)";
  cpu.reported_counters = 6;
  cpu.working_counters = 5;
  return cpu;
}

inline Options source_models(int level = 1) {
  Options options;
  options.level = level;
  options.models_dir = TOPDOWN_SOURCE_DIR "/models";
  return options;
}

struct FakeSession {
  Session session;
  FakeReader* reader;
  std::vector<std::string> events;

  // Makes every pair of readings add `count` to `event`.
  void set_step(const std::string& event, uint64_t count) {
    const auto at = std::find(events.begin(), events.end(), event);
    ASSERT_NE(at, events.end()) << event << " is not counted";
    reader->step[static_cast<std::size_t>(at - events.begin())] = count;
  }
};

// A session on the calling thread that counts like `counting` says, with
// synthetic readings.
inline FakeSession fake_session(Counting counting) {
  auto reader = std::make_unique<FakeReader>();
  FakeReader* raw = reader.get();
  std::vector<std::string> events;
  for (const auto& encoding : counting.events) events.push_back(encoding.name);
  SessionInfo info;
  info.method = counting.method_name;
  auto impl = std::make_unique<Session::Impl>(std::move(reader), std::move(counting.method), events.size(), info);
  return FakeSession{Session::Impl::wrap(std::move(impl)), raw, events};
}

// Zen 5, level 1, SMT off, where one call is a known breakdown: 1000 cycles
// (8000 slots), 2000 frontend slots (0.25), 3000 dispatched and 2400 retired
// ops (Bad_Speculation 0.075, Retiring 0.3), 3000 backend slots (0.375).
inline FakeSession zen5_level1_session() {
  FakeSession fake = fake_session(plan_counting(zen5_cpu(), std::nullopt, source_models()));
  fake.set_step("ls_not_halted_cyc", 1000);
  fake.set_step("de_no_dispatch_per_slot.no_ops_from_frontend", 2000);
  fake.set_step("de_src_op_disp.all", 3000);
  fake.set_step("ex_ret_ops", 2400);
  fake.set_step("de_no_dispatch_per_slot.backend_stalls", 3000);
  return fake;
}

}  // namespace topdown::region::testing
