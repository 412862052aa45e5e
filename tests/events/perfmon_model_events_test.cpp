// Every event an Intel model can ask for, resolved the way topdown resolves
// it for that CPU (our tables, then libpfm4's tables for it), must be the
// event of Intel's perfmon list with the model's modifiers applied, and carry
// the counters the list allows.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "events/model_resolver.h"
#include "events/pfm_events.h"
#include "model/dependencies.h"

namespace topdown::events {
namespace {

const std::filesystem::path kPerfmon =
    std::filesystem::path(TOPDOWN_SOURCE_DIR) / ".." / "shared" / "reference" / "intel-perfmon";

struct IntelModel {
  const char* model;        // models/<model>.model
  const char* perfmon_dir;  // where its events lists are: <CPU>, or events-2026-07/<CPU> (Intel's corrections)
  std::vector<const char*> event_lists;
  bool has_uncore_list = true;
};

std::ostream& operator<<(std::ostream& out, const IntelModel& intel) { return out << intel.model; }

// The PERF_METRICS fields are pseudo events of the kernel (perfmon lists
// none): their code is 0 and their unit mask 0x80 + the field's index.
const std::map<std::string, uint64_t> kPerfMetricsFields = {
    {"PERF_METRICS.RETIRING", 0x80},         {"PERF_METRICS.BAD_SPECULATION", 0x81},
    {"PERF_METRICS.FRONTEND_BOUND", 0x82},   {"PERF_METRICS.BACKEND_BOUND", 0x83},
    {"PERF_METRICS.HEAVY_OPERATIONS", 0x84}, {"PERF_METRICS.BRANCH_MISPREDICTS", 0x85},
    {"PERF_METRICS.FETCH_LATENCY", 0x86},    {"PERF_METRICS.MEMORY_BOUND", 0x87}};

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
  uint64_t event, umask, cmask, inv, edge, any, offcore, umask2, equal = 0;
  bool exclude_user = false, exclude_kernel = false, percore = false;
  int precise = 0;

  // The whole config of a general-counter event, in the kernel's x86 core layout.
  uint64_t config() const {
    return event | umask << 8 | edge << 18 | any << 21 | inv << 23 | cmask << 24 | equal << 36 | umask2 << 40;
  }
};

Expected expected_for(const nlohmann::json& perfmon, const std::string& modifiers) {
  Expected want{number(perfmon, "EventCode"), number(perfmon, "UMask"),      number(perfmon, "CounterMask"),
                number(perfmon, "Invert"),    number(perfmon, "EdgeDetect"), number(perfmon, "AnyThread"),
                number(perfmon, "MSRValue"),  number(perfmon, "UMaskExt")};
  for (size_t at = 0; at < modifiers.size();) {
    const size_t end = std::min(modifiers.find(':', at + 1), modifiers.size());
    const std::string mod = modifiers.substr(at + 1, end - at - 1);
    if (mod.starts_with("ocr_msr_val"))
      want.offcore = std::stoull(mod.substr(mod.find("0x")), nullptr, 16);
    else if (mod == "percore")
      want.percore = true;
    else if (mod == "SUP")
      want.exclude_user = true;
    else if (mod == "p" || mod == "pp" || mod == "ppp")
      want.precise = static_cast<int>(mod.size());
    else if (mod == "USER")
      want.exclude_kernel = true;
    else if (mod.starts_with("eq"))
      want.equal = std::stoull(mod.substr(2), nullptr, 0);
    else if (mod[0] == 'c')
      want.cmask = std::stoull(mod.substr(1), nullptr, 0);
    else if (mod[0] == 'i')
      want.inv = std::stoull(mod.substr(1), nullptr, 0);
    else if (mod[0] == 'e')
      want.edge = std::stoull(mod.substr(1), nullptr, 0);
    else if (mod[0] == 'u')
      want.umask = std::stoull(mod.substr(1), nullptr, 16);
    else
      ADD_FAILURE() << "unexpected modifier :" << mod;
    at = end;
  }
  return want;
}

class PerfmonModelEvents : public ::testing::TestWithParam<IntelModel> {
 protected:
  void SetUp() override {
    model_file_ = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models" / (std::string(GetParam().model) + ".model");
    if (!std::filesystem::exists(model_file_)) GTEST_SKIP() << model_file_ << " does not exist yet";
    const std::filesystem::path lists = kPerfmon / GetParam().perfmon_dir / "events";
    if (!std::filesystem::exists(lists)) GTEST_SKIP() << lists << " is absent; this cross-check needs it";
    for (const char* file : GetParam().event_lists) {
      std::ifstream in(lists / file);
      const nlohmann::json list = nlohmann::json::parse(in);
      for (const auto& event : list.at("Events")) {
        perfmon_[event.at("EventName").get<std::string>()] = event;
      }
    }
  }

  // Every event of every node and Info metric, for every combination of the
  // run variables, and the events to sample (precise ones with :pp).
  static std::set<std::string> model_events(const model::Model& model) {
    std::set<std::string> names;
    for (const model::Node& node : model.nodes) names.insert(node.sample_events.begin(), node.sample_events.end());
    for (const bool smt : {false, true}) {
      for (const bool ebs : {false, true}) {
        for (const bool perf_metrics : {false, true}) {
          const model::Dependencies deps(model, {smt, ebs, perf_metrics});
          for (const model::Node& node : model.nodes) names.merge(std::set(deps.events_of(node.name)));
        }
      }
    }
    return names;
  }

  std::filesystem::path model_file_;
  std::map<std::string, nlohmann::json> perfmon_;
};

TEST_P(PerfmonModelEvents, EveryEventMatchesIntelsList) {
  const model::Model model = model::load_model(model_file_);
  // A generated model names no libpfm4 PMU: its own table encodes every event.
  if (!model.pfm_pmu.empty() && !pfm_knows_pmu(model.pfm_pmu)) {
    GTEST_SKIP() << "this libpfm4 does not know " << model.pfm_pmu;
  }
  const Resolver resolver(offline_resolver_config(model));  // the model's CPU, not this machine's PMUs

  const std::set<std::string> names = model_events(model);
  // The E-core trees are the smallest tree, Darkmont's the smallest of them (Skymont's tree
  // without the metrics of events Darkmont lacks); Clearwater Forest has no tree, only Info metrics.
  const std::string model_name = GetParam().model;
  EXPECT_GE(names.size(), model_name == "cwf" ? 40u : model_name == "ptl_ecore" ? 60u : 70u);
  EXPECT_GE(perfmon_.size(), 150u);
  int checked = 0;
  int unlisted = 0;
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    // The time stamp counter and the package energy: kernel PMUs, not in Intel's lists.
    if (name == "msr/tsc/" || name == "power/energy-pkg/") {
      ++unlisted;
      continue;
    }
    if (auto field = kPerfMetricsFields.find(name); field != kPerfMetricsFields.end()) {
      const Encoding encoding = resolver.resolve(name);
      EXPECT_TRUE(encoding.topdown_metric);
      EXPECT_EQ(encoding.config, field->second << 8);
      EXPECT_FALSE(encoding.fixed_counter.has_value());
      ++unlisted;
      continue;
    }
    const size_t colon = name.find(':');
    const std::string base = name.substr(0, colon);
    if (!GetParam().has_uncore_list && resolver.resolve(name).uncore) {
      ++unlisted;  // an uncore event of a CPU whose uncore list the reference lacks
      continue;
    }
    ASSERT_EQ(perfmon_.count(base), 1u) << "not an event of Intel's list for " << GetParam().model;
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
      EXPECT_EQ((c >> 36) & 1, want.equal);
      EXPECT_EQ((c >> 40) & 0xFF, want.umask2);  // perfmon's UMaskExt (Lion Cove on)
      EXPECT_EQ(c, want.config()) << "a bit no field of Intel's list sets";
      EXPECT_EQ(encoding.config1, want.offcore);
      EXPECT_EQ(encoding.config2, 0u);
      EXPECT_FALSE(encoding.fixed_counter.has_value());
      // Restricted events carry their counters; the others may use any.
      const uint64_t allowed = counter_bits(counters);
      if (allowed != (1ull << model.counters.general_without_smt) - 1) {
        EXPECT_EQ(encoding.counter_mask, allowed);
      }
    }
    EXPECT_EQ(encoding.uncore, perfmon.contains("Unit"));
    EXPECT_EQ(encoding.exclude_user, want.exclude_user);
    EXPECT_EQ(encoding.exclude_kernel, want.exclude_kernel);
    EXPECT_EQ(encoding.precise, want.precise);
    EXPECT_EQ(encoding.percore, want.percore);
    ++checked;
  }
  EXPECT_EQ(checked + unlisted, static_cast<int>(names.size()));
}

// Each model's own tables encode every event it counts (tools/modelgen writes
// the perfmon events each model names, the hand-written Haswell's too):
// libpfm4, where it knows the CPU, gives the same encodings but is never needed.
TEST_P(PerfmonModelEvents, NoEventNeedsLibpfm) {
  const model::Model model = model::load_model(model_file_);
  ResolverConfig tables_only = offline_resolver_config(model);
  tables_only.pfm_pmu = "-";
  const Resolver without_libpfm(tables_only);
  const Resolver with_libpfm(offline_resolver_config(model));
  for (const std::string& name : model_events(model)) {
    SCOPED_TRACE(name);
    Encoding encoding;
    ASSERT_NO_THROW(encoding = without_libpfm.resolve(name));
    EXPECT_NE(encoding.source, "libpfm4");
    const Encoding reference = with_libpfm.resolve(name);
    EXPECT_EQ(encoding.config, reference.config);
    EXPECT_EQ(encoding.config1, reference.config1);
    EXPECT_EQ(encoding.type, reference.type);
  }
}

// The hand-written Haswell model, then the ones tools/modelgen generates from
// perfmon (their own tables encode every event; only Skylake's uncore list is
// pinned beside its core list), the E-core ones last.
INSTANTIATE_TEST_SUITE_P(
    Intel, PerfmonModelEvents,
    ::testing::Values(IntelModel{"hsw", "HSW", {"haswell_core.json", "haswell_uncore.json"}},
                      IntelModel{"skl", "SKL", {"skylake_core.json", "skylake_uncore.json"}},
                      IntelModel{"icl", "ICL", {"icelake_core.json"}, false},
                      IntelModel{"spr@5.01", "SPR", {"sapphirerapids_core.json"}, false},
                      IntelModel{"hsx", "HSX", {"haswellx_core.json"}, false},
                      IntelModel{"bdw", "BDW", {"broadwell_core.json"}, false},
                      IntelModel{"bdx", "BDX", {"broadwellx_core.json"}, false},
                      IntelModel{"skx", "SKX", {"skylakex_core.json"}, false},
                      IntelModel{"clx", "CLX", {"cascadelakex_core.json"}, false},
                      IntelModel{"rkl", "RKL", {"rocketlake_core.json"}, false},
                      IntelModel{"tgl", "TGL", {"tigerlake_core.json"}, false},
                      IntelModel{"icx@5.1", "ICX", {"icelakex_core.json"}, false},
                      IntelModel{"emr@5.1", "EMR", {"emeraldrapids_core.json"}, false},
                      IntelModel{"gnr@5.1", "GNR", {"graniterapids_core.json"}, false},
                      IntelModel{"icx", "tma-5.2/ICX", {"icelakex_core.json"}, false},
                      IntelModel{"spr", "tma-5.2/SPR", {"sapphirerapids_core.json"}, false},
                      IntelModel{"emr", "tma-5.2/EMR", {"emeraldrapids_core.json"}, false},
                      IntelModel{"gnr", "tma-5.2/GNR", {"graniterapids_core.json"}, false},
                      IntelModel{"cwf", "CWF", {"clearwaterforest_core.json"}, false},
                      IntelModel{"sprhbm", "SPR", {"sapphirerapids_core.json"}, false},
                      IntelModel{"srf", "SRF", {"sierraforest_core.json"}, false},
                      IntelModel{"grr", "GRR", {"grandridge_core.json"}, false},
                      IntelModel{"adl", "ADL", {"alderlake_goldencove_core.json"}, false},
                      IntelModel{"mtl", "MTL", {"meteorlake_redwoodcove_core.json"}, false},
                      IntelModel{"lnl", "events-2026-07/LNL", {"lunarlake_lioncove_core.json"}, false},
                      IntelModel{"arl", "events-2026-07/ARL", {"arrowlake_lioncove_core.json"}, false},
                      IntelModel{"ptl", "PTL", {"pantherlake_cougarcove_core.json"}, false},
                      IntelModel{"adl_ecore", "ADL", {"alderlake_gracemont_core.json"}, false},
                      IntelModel{"mtl_ecore", "MTL", {"meteorlake_crestmont_core.json"}, false},
                      IntelModel{"lnl_ecore", "LNL", {"lunarlake_skymont_core.json"}, false},
                      IntelModel{"arl_ecore", "ARL", {"arrowlake_skymont_core.json"}, false},
                      IntelModel{"ptl_ecore", "PTL", {"pantherlake_darkmont_core.json"}, false}),
    [](const ::testing::TestParamInfo<IntelModel>& test) {
      // A test name is letters, digits and '_': spr@5.01 is spr_5_01.
      std::string name = test.param.model;
      std::replace_if(
          name.begin(), name.end(), [](char c) { return c == '@' || c == '.'; }, '_');
      return name;
    });

}  // namespace
}  // namespace topdown::events
