// Every event the Haswell model can ask for, resolved the way topdown resolves
// it (our tables, then libpfm4's hsw tables), must be the event of Intel's
// perfmon list with the model's modifiers applied, and carry the counters the
// list allows.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "events/model_resolver.h"
#include "events/pfm_events.h"
#include "model/dependencies.h"
#include "resolver_fixture.h"

namespace topdown::events {
namespace {

const std::filesystem::path kPerfmon =
    std::filesystem::path(TOPDOWN_SOURCE_DIR) / ".." / "shared" / "reference" / "intel-perfmon" / "HSW" / "events";

uint64_t number(const nlohmann::json& event, const char* key) {
  if (!event.contains(key)) return 0;
  const std::string text = event.at(key).get<std::string>();
  return std::stoull(text.substr(0, text.find(',')), nullptr, 0);  // "0xB7, 0xBB": OFFCORE_RESPONSE_0
}

// "0,1,2,3" -> 0xF; "Fixed counter 1" and "FIXED" -> 0 (not a general counter).
uint64_t counter_bits(const std::string& list) {
  if (list.find_first_not_of("0123456789,") != std::string::npos) return 0;
  uint64_t bits = 0;
  for (size_t at = 0; at < list.size(); at = list.find(',', at) + 1) {
    bits |= 1ull << std::stoi(list.substr(at));
    if (list.find(',', at) == std::string::npos) break;
  }
  return bits;
}

// What the fields of an encoding should be: perfmon's values, then the
// modifiers written after the name (:c1 :i1 :e1 :u0xE4 :SUP :USER).
struct Expected {
  uint64_t event, umask, cmask, inv, edge, any, offcore;
  bool exclude_user = false, exclude_kernel = false;
  int precise = 0;
};

Expected expected_for(const nlohmann::json& perfmon, const std::string& modifiers) {
  Expected want{number(perfmon, "EventCode"), number(perfmon, "UMask"),   number(perfmon, "CounterMask"),
                number(perfmon, "Invert"),    number(perfmon, "EdgeDetect"), number(perfmon, "AnyThread"),
                number(perfmon, "MSRValue")};
  for (size_t at = 0; at < modifiers.size();) {
    const size_t end = std::min(modifiers.find(':', at + 1), modifiers.size());
    const std::string mod = modifiers.substr(at + 1, end - at - 1);
    if (mod == "SUP") want.exclude_user = true;
    else if (mod == "p" || mod == "pp" || mod == "ppp") want.precise = static_cast<int>(mod.size());
    else if (mod == "USER") want.exclude_kernel = true;
    else if (mod[0] == 'c') want.cmask = std::stoull(mod.substr(1), nullptr, 0);
    else if (mod[0] == 'i') want.inv = std::stoull(mod.substr(1), nullptr, 0);
    else if (mod[0] == 'e') want.edge = std::stoull(mod.substr(1), nullptr, 0);
    else if (mod[0] == 'u') want.umask = std::stoull(mod.substr(1), nullptr, 16);
    else ADD_FAILURE() << "unexpected modifier :" << mod;
    at = end;
  }
  return want;
}

class HaswellModelEvents : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kPerfmon)) GTEST_SKIP() << kPerfmon << " is absent; this cross-check needs it";
    if (!pfm_knows_pmu("hsw")) GTEST_SKIP() << "this libpfm4 does not know hsw";
    for (const char* file : {"haswell_core.json", "haswell_uncore.json"}) {
      std::ifstream in(kPerfmon / file);
      const nlohmann::json list = nlohmann::json::parse(in);
      for (const auto& event : list.at("Events")) {
        perfmon_[event.at("EventName").get<std::string>()] = event;
      }
    }
  }

  // Every event of every node and Info metric, SMT on and off, ebs_mode on
  // and off, and the events to sample (precise ones with :pp).
  static std::set<std::string> model_events(const model::Model& model) {
    std::set<std::string> names;
    for (const model::Node& node : model.nodes) names.insert(node.sample_events.begin(), node.sample_events.end());
    for (const bool smt : {false, true}) {
      for (const bool ebs : {false, true}) {
        const model::Dependencies deps(model, {smt, ebs});
        for (const model::Node& node : model.nodes) names.merge(std::set(deps.events_of(node.name)));
      }
    }
    return names;
  }

  std::map<std::string, nlohmann::json> perfmon_;
};

TEST_F(HaswellModelEvents, EveryEventMatchesIntelsList) {
  const model::Model model = model::load_model(std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models" / "hsw.model");
  const topdown::testing::TempTree tree;
  ResolverConfig config = resolver_config(model, testing::haswell());
  config.sysfs_devices = tree.root() / "no-sysfs";  // not this machine's PMUs
  const Resolver resolver(config);

  const std::set<std::string> names = model_events(model);
  EXPECT_GE(names.size(), 100u);
  EXPECT_GE(perfmon_.size(), 400u);
  int checked = 0;
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    if (name == "msr/tsc/") continue;  // the time stamp counter: a kernel PMU, not in Intel's list
    const size_t colon = name.find(':');
    const std::string base = name.substr(0, colon);
    ASSERT_EQ(perfmon_.count(base), 1u) << "not an event of Intel's Haswell list";
    const nlohmann::json& perfmon = perfmon_.at(base);
    const Encoding encoding = resolver.resolve(name);
    const Expected want = expected_for(perfmon, colon == std::string::npos ? "" : name.substr(colon));
    const std::string counters = perfmon.value("CounterHTOff", perfmon.at("Counter").get<std::string>());
    const uint64_t c = encoding.config;

    if (counters.starts_with("Fixed counter")) {
      // perf's fixed-counter encodings (0xc0, 0x3c, 0x0300) replace perfmon's pseudo codes.
      EXPECT_EQ(encoding.fixed_counter, std::stoi(counters.substr(std::string("Fixed counter ").size())));
      EXPECT_EQ((c >> 21) & 1, want.any);
    } else if (counters == "FIXED") {
      EXPECT_TRUE(encoding.uncore);
      EXPECT_EQ(c, 0xffu);  // the kernel's code for an uncore fixed counter
    } else {
      EXPECT_EQ(c & 0xFF, want.event);
      EXPECT_EQ((c >> 8) & 0xFF, want.umask);
      EXPECT_EQ((c >> 24) & 0xFF, want.cmask);
      EXPECT_EQ((c >> 23) & 1, want.inv);
      EXPECT_EQ((c >> 18) & 1, want.edge);
      EXPECT_EQ((c >> 21) & 1, want.any);
      EXPECT_EQ(encoding.config1, want.offcore);
      EXPECT_FALSE(encoding.fixed_counter.has_value());
      // Restricted events carry their counters; the others may use any of eight.
      const uint64_t allowed = counter_bits(counters);
      if (allowed != 0xFF) {
        EXPECT_EQ(encoding.counter_mask, allowed);
      }
    }
    EXPECT_EQ(encoding.uncore, perfmon.contains("Unit"));
    EXPECT_EQ(encoding.exclude_user, want.exclude_user);
    EXPECT_EQ(encoding.exclude_kernel, want.exclude_kernel);
    EXPECT_EQ(encoding.precise, want.precise);
    ++checked;
  }
  EXPECT_EQ(checked + 1, static_cast<int>(names.size()));
}

}  // namespace
}  // namespace topdown::events
