#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "../support/temp_tree.h"
#include "cpu_ids.h"
#include "model/model.h"

namespace topdown::model {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using topdown::testing::amd_cpu;
using topdown::testing::TempTree;

const std::filesystem::path kShippedModels = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models";

// A child written before its parent, an info metric between tree nodes, and
// continuation lines in text, lists and formulas.
constexpr const char* kToyModel = R"(# toy model
[model]
name = toy
title = Toy CPU (test)
cpus = AMD 0x1A, Intel 6 0x3C-0x3F, AMD 25 0x61
event_table = toy_events
pfm_pmu = toy_pmu

[constants]
Pipeline_Width = 4
Half = 0.5

[define]
SLOTS = Pipeline_Width * cycles
HALF_SLOTS = SLOTS * Half

[node Heavy]
vendor_name = retiring_heavy
parent = Retiring
formula = Retiring * ucode /
  ops
threshold = this > 0.1 and parent_over
domain = Slots
area = RET
groups = Retire,
  TmaL2
sample = ucode, ops:pp
description = Ops from
	microcode.
advice = Avoid them.

[info IPC]
formula = instructions / cycles
unit = instructions/cycle
groups = Summary
description = Instructions per cycle.

[node Retiring]
vendor_name = retiring
formula = ops / SLOTS
identity = 1 - Stalled
fallback = retired_estimate / SLOTS
threshold = this > 0.7
description = Useful slots.

[node Stalled]
formula = stalls / SLOTS
description = Lost slots.

[retire_latencies]
MEM_LOAD_RETIRED.L3_HIT = 57.64
FRONTEND_RETIRED.L2_MISS = measured
)";

Model load_toy() {
  const TempTree tree;
  return load_model(tree.write("toy.model", kToyModel));
}

std::vector<std::string> names_of(const std::vector<const Node*>& nodes) {
  std::vector<std::string> names;
  for (const Node* node : nodes) names.push_back(node->name);
  return names;
}

TEST(ModelLoader, ReadsTheModelSection) {
  const Model model = load_toy();
  EXPECT_EQ(model.name, "toy");
  EXPECT_EQ(model.title, "Toy CPU (test)");
  EXPECT_EQ(model.event_tables, std::vector<std::string>{"toy_events"});
  EXPECT_EQ(model.pfm_pmu, "toy_pmu");
  EXPECT_EQ(model.source.filename(), "toy.model");
  ASSERT_EQ(model.cpus.size(), 3u);
  EXPECT_EQ(model.cpus[0].vendor, cpu::Vendor::Amd);
  EXPECT_EQ(model.cpus[0].family, 0x1Au);
  EXPECT_EQ(model.cpus[0].model_min, 0u);
  EXPECT_EQ(model.cpus[0].model_max, 0xffffffffu);
  EXPECT_EQ(model.cpus[1].vendor, cpu::Vendor::Intel);
  EXPECT_EQ(model.cpus[1].family, 6u);
  EXPECT_EQ(model.cpus[1].model_min, 0x3Cu);
  EXPECT_EQ(model.cpus[1].model_max, 0x3Fu);
  EXPECT_EQ(model.cpus[2].family, 25u);
  EXPECT_EQ(model.cpus[2].model_min, 0x61u);
  EXPECT_EQ(model.cpus[2].model_max, 0x61u);
}

TEST(ModelLoader, ReadsConstantsAndDefinitionsInOrder) {
  const Model model = load_toy();
  EXPECT_EQ(model.constants.size(), 2u);
  EXPECT_EQ(model.constants.at("Pipeline_Width"), 4.0);
  EXPECT_EQ(model.constants.at("Half"), 0.5);
  ASSERT_EQ(model.definitions.size(), 2u);
  EXPECT_EQ(model.definitions[0].first, "SLOTS");
  EXPECT_EQ(model.definitions[1].first, "HALF_SLOTS");
  EXPECT_EQ(model.definitions[0].second.identifiers(), (std::set<std::string>{"Pipeline_Width", "cycles"}));
}

TEST(ModelLoader, ReadsRetireLatenciesByTheirFormulaNames) {
  const Model model = load_toy();
  EXPECT_EQ(model.retire_latencies,
            (std::map<std::string, RetireLatency, std::less<>>{
                {"Retire_Latency_FRONTEND_RETIRED_L2_MISS", {"FRONTEND_RETIRED.L2_MISS", std::nullopt}},
                {"Retire_Latency_MEM_LOAD_RETIRED_L3_HIT", {"MEM_LOAD_RETIRED.L3_HIT", 57.64}}}));
  EXPECT_EQ(retire_latency_name("cpu_core/MEM_INST_RETIRED.LOCK_LOADS/"),
            "Retire_Latency_cpu_core_MEM_INST_RETIRED_LOCK_LOADS_");
  EXPECT_TRUE(is_run_variable("Retire_Latency_MEM_LOAD_RETIRED_L3_HIT"));
  EXPECT_FALSE(is_run_variable("Retire_Latency_"));
}

TEST(ModelLoader, ReadsCounterCountsAndDefaultsToUnknown) {
  const TempTree tree;
  const Model model = load_model(tree.write("hsw.model", R"([model]
name = counted
title = Counted
cpus = Intel 6 0x3C
event_table = none
counters = 4
counters_without_smt = 8
fixed_counters = 3
)"));
  EXPECT_EQ(model.counters.general, 4u);
  EXPECT_EQ(model.counters.general_without_smt, 8u);
  EXPECT_EQ(model.counters.fixed, 3u);
  EXPECT_EQ(model.counters.general_for(true), 4u);
  EXPECT_EQ(model.counters.general_for(false), 8u);
  const Model toy = load_toy();
  EXPECT_EQ(toy.counters.general, 0u);
  EXPECT_EQ(toy.counters.general_for(false), 0u);
}

TEST(ModelLoader, DefinitionsMayUseNodesAndThresholdsOtherVerdicts) {
  const TempTree tree;
  const Model model = load_model(tree.write("v.model", R"([model]
name = v
title = V
cpus = AMD 0x1A
event_table = none
[define]
EMPTY = empty_cycles if Latency > 0.1 else 0
[node Latency]
formula = stalls / cycles
threshold = this > 0.1
[node Retiring]
formula = (cycles - EMPTY) / cycles
threshold = this > 0.7 or over(Latency)
)"));
  EXPECT_EQ(model.definitions[0].second.identifiers(), (std::set<std::string>{"Latency", "empty_cycles"}));
  EXPECT_EQ(model.find("Retiring")->threshold->identifiers(), (std::set<std::string>{"over(Latency)", "this"}));
}

TEST(ModelLoader, ReadsEveryNodeField) {
  const Model model = load_toy();
  const Node* heavy = model.find("Heavy");
  ASSERT_NE(heavy, nullptr);
  EXPECT_EQ(heavy->vendor_name, "retiring_heavy");
  EXPECT_EQ(heavy->parent, "Retiring");
  EXPECT_EQ(heavy->level, 2);
  EXPECT_FALSE(heavy->is_info);
  EXPECT_EQ(heavy->formula.identifiers(), (std::set<std::string>{"Retiring", "ucode", "ops"}));
  EXPECT_FALSE(heavy->identity.has_value());
  ASSERT_TRUE(heavy->threshold.has_value());
  EXPECT_EQ(heavy->threshold->identifiers(), (std::set<std::string>{"this", "parent_over"}));
  EXPECT_EQ(heavy->domain, "Slots");
  EXPECT_EQ(heavy->area, "RET");
  EXPECT_THAT(heavy->groups, ElementsAre("Retire", "TmaL2"));
  EXPECT_THAT(heavy->sample_events, ElementsAre("ucode", "ops:pp"));
  EXPECT_EQ(heavy->description, "Ops from microcode.");
  EXPECT_EQ(heavy->advice, "Avoid them.");
  EXPECT_EQ(heavy->where.line, 17);
  EXPECT_EQ(heavy->where.column, 1);

  const Node* retiring = model.find("Retiring");
  ASSERT_NE(retiring, nullptr);
  EXPECT_EQ(retiring->level, 1);
  EXPECT_TRUE(retiring->parent.empty());
  ASSERT_TRUE(retiring->identity.has_value());
  EXPECT_EQ(retiring->identity->identifiers(), (std::set<std::string>{"Stalled"}));
  ASSERT_TRUE(retiring->fallback.has_value());
  EXPECT_EQ(retiring->fallback->identifiers(), (std::set<std::string>{"retired_estimate", "SLOTS"}));
  EXPECT_FALSE(heavy->fallback.has_value());
}

TEST(ModelLoader, ReadsInfoMetrics) {
  const Model model = load_toy();
  const Node* ipc = model.find("IPC");
  ASSERT_NE(ipc, nullptr);
  EXPECT_TRUE(ipc->is_info);
  EXPECT_EQ(ipc->level, 0);
  EXPECT_EQ(ipc->unit, "instructions/cycle");
  EXPECT_THAT(ipc->groups, ElementsAre("Summary"));
  EXPECT_FALSE(ipc->threshold.has_value());
}

TEST(ModelLoader, FormulaOverContinuationLinesEvaluates) {
  const Model model = load_toy();
  const expr::FunctionScope scope([](std::string_view name) -> expr::Value {
    if (name == "Retiring") return 0.5;
    if (name == "ucode") return 30.0;
    if (name == "ops") return 120.0;
    return std::nullopt;
  });
  EXPECT_EQ(model.find("Heavy")->formula.evaluate(scope), 0.125);  // 0.5 * 30 / 120
}

TEST(ModelLoader, ListsTheTreeDepthFirstThenInfoMetrics) {
  const Model model = load_toy();
  std::vector<std::string> order;
  for (const Node& node : model.nodes) order.push_back(node.name);
  EXPECT_THAT(order, ElementsAre("Retiring", "Heavy", "Stalled", "IPC"));
}

TEST(ModelLoader, FindsByNameOrVendorNameCaseSensitively) {
  const Model model = load_toy();
  ASSERT_NE(model.find("retiring_heavy"), nullptr);
  EXPECT_EQ(model.find("retiring_heavy")->name, "Heavy");
  EXPECT_EQ(model.find("retiring")->name, "Retiring");
  EXPECT_EQ(model.find("heavy"), nullptr);
  EXPECT_EQ(model.find("Fetch_Latency"), nullptr);
}

TEST(ModelLoader, ListsChildrenAndLevelOneNodes) {
  const Model model = load_toy();
  EXPECT_THAT(names_of(model.children("Retiring")), ElementsAre("Heavy"));
  EXPECT_THAT(names_of(model.children("")), ElementsAre("Retiring", "Stalled"));
  EXPECT_TRUE(model.children("Heavy").empty());
  EXPECT_TRUE(model.children("IPC").empty());
}

TEST(ModelLoader, MatchesCpusByVendorFamilyAndModelRange) {
  const Model model = load_toy();
  auto id = [](cpu::Vendor vendor, unsigned family, unsigned model_number) {
    cpu::CpuId cpu_id;
    cpu_id.vendor = vendor;
    cpu_id.family = family;
    cpu_id.model = model_number;
    return cpu_id;
  };
  EXPECT_TRUE(model.matches(id(cpu::Vendor::Amd, 0x1A, 0x44)));
  EXPECT_TRUE(model.matches(id(cpu::Vendor::Intel, 6, 0x3C)));
  EXPECT_TRUE(model.matches(id(cpu::Vendor::Intel, 6, 0x3F)));
  EXPECT_FALSE(model.matches(id(cpu::Vendor::Intel, 6, 0x40)));
  EXPECT_FALSE(model.matches(id(cpu::Vendor::Intel, 0x1A, 0x44)));
  EXPECT_TRUE(model.matches(id(cpu::Vendor::Amd, 25, 0x61)));
  EXPECT_FALSE(model.matches(id(cpu::Vendor::Amd, 25, 0x60)));
  EXPECT_FALSE(model.matches(id(cpu::Vendor::Other, 0x1A, 0)));
}

TEST(ModelLoader, MatchesSteppingRangesAndArmMidrs) {
  const TempTree tree;
  const std::filesystem::path file = tree.write("stepped.model",
                                                "[model]\nname = stepped\ntitle = Stepped\n"
                                                "cpus = Intel 6 0x55 0x5-0xF, Arm 0x41 0xd4f\n"
                                                "event_table = none\npmu = cpu_core\ncore_type = P-core\n"
                                                "methodology = TMA 5.1\nclock = CPU_CLK_UNHALTED.THREAD\n"
                                                "[node A]\nformula = 1\n");
  const Model model = load_model(file);
  EXPECT_EQ(model.pmu, "cpu_core");
  EXPECT_EQ(model.core_type, "P-core");
  EXPECT_EQ(model.methodology, "TMA 5.1");
  EXPECT_EQ(model.clock, "CPU_CLK_UNHALTED.THREAD");
  cpu::CpuId cascade_lake{cpu::Vendor::Intel, "GenuineIntel", 6, 0x55, 7, ""};
  EXPECT_TRUE(model.matches(cascade_lake));
  cpu::CpuId skylake_server = cascade_lake;
  skylake_server.stepping = 4;
  EXPECT_FALSE(model.matches(skylake_server));
  const cpu::CpuId neoverse_v2{cpu::Vendor::Arm, "", 0x41, 0xd4f, 0, ""};
  EXPECT_TRUE(model.matches(neoverse_v2));
  EXPECT_EQ(to_string(model.cpus[0]), "Intel 0x6 0x55 0x5-0xF");
  EXPECT_EQ(to_string(model.cpus[1]), "Arm 0x41 0xD4F");
}

TEST(ModelLoader, SpellsCpuMatchesAsInTheFile) {
  EXPECT_EQ(to_string(CpuMatch{cpu::Vendor::Amd, 0x1A}), "AMD 0x1A");
  EXPECT_EQ(to_string(CpuMatch{cpu::Vendor::Intel, 6, 0x3C, 0x3F}), "Intel 0x6 0x3C-0x3F");
  EXPECT_EQ(to_string(CpuMatch{cpu::Vendor::Amd, 0x19, 0x61, 0x61}), "AMD 0x19 0x61");
}

TEST(ModelLoader, KnowsTheRunVariables) {
  for (const char* name : {"smt_enabled", "ebs_mode", "perf_metrics", "num_cpus_online", "#num_cpus_online",
                           "interval-s", "duration_time", "#smt_on", "#slots", "this", "parent_over"}) {
    EXPECT_TRUE(is_run_variable(name)) << name;
  }
  for (const char* name : {"This", "cycles", "SLOTS", "smt_on", "interval"}) {
    EXPECT_FALSE(is_run_variable(name)) << name;
  }
}

TEST(ModelLoader, ReportsAMissingFileByName) {
  const TempTree tree;
  const std::filesystem::path missing = tree.root() / "absent.model";
  try {
    load_model(missing);
    FAIL() << "no error for a missing file";
  } catch (const ParseError&) {
    FAIL() << "a missing file is not a parse error";
  } catch (const Error& error) {
    EXPECT_THAT(error.what(), HasSubstr(missing.string()));
    EXPECT_THAT(error.what(), HasSubstr("cannot open"));
  }
}

TEST(ModelLoader, ReportsAFolderGivenAsFile) {
  const TempTree tree;
  EXPECT_THROW(
      {
        try {
          load_model(tree.root());
        } catch (const Error& error) {
          EXPECT_THAT(error.what(), HasSubstr("is a directory"));
          throw;
        }
      },
      Error);
}

TEST(ModelLoader, ReadsTheHeaderOfEveryModelFileOfAFolderByFileName) {
  const TempTree tree;
  std::string second = kToyModel;
  second.replace(second.find("name = toy"), 10, "name = abc");
  tree.write("b.model", kToyModel);
  tree.write("a.model", second);
  tree.write("notes.txt", "not a model");
  const std::vector<ModelHeader> headers = load_headers(tree.root());
  ASSERT_EQ(headers.size(), 2u);
  EXPECT_EQ(headers[0].name, "abc");
  EXPECT_EQ(headers[0].source, tree.root() / "a.model");
  EXPECT_EQ(headers[1].name, "toy");
  EXPECT_EQ(headers[1].title, "Toy CPU (test)");
}

TEST(ModelLoader, RejectsTwoFilesForOneModelName) {
  const TempTree tree;
  tree.write("a.model", kToyModel);
  tree.write("b.model", kToyModel);
  try {
    load_headers(tree.root());
    FAIL() << "no error for a duplicate model name";
  } catch (const Error& error) {
    EXPECT_THAT(error.what(), HasSubstr("both define the model 'toy'"));
  }
}

TEST(ModelLoader, RejectsAMissingFolder) {
  const TempTree tree;
  const std::filesystem::path dir = tree.root() / "nowhere";
  try {
    load_headers(dir);
    FAIL() << "no error for a missing folder";
  } catch (const Error& error) {
    EXPECT_THAT(error.what(), HasSubstr(dir.string()));
    EXPECT_THAT(error.what(), HasSubstr("TOPDOWN_MODELS"));
  }
}

TEST(SelectModel, PicksByCpuId) {
  EXPECT_EQ(select_model(kShippedModels, amd_cpu(0x1A, 0x44)).name, "zen5");
  EXPECT_EQ(select_model(kShippedModels, amd_cpu(0x19, 0x11)).name, "zen4");
  EXPECT_EQ(select_model(kShippedModels, amd_cpu(0x19, 0x61)).name, "zen4");
}

TEST(SelectModel, ExplainsAnUnsupportedCpu) {
  // Family 0x19 model 1 is Zen 3 (this build machine), which has no model;
  // zen4 is the only model of family 0x19.
  try {
    select_model(kShippedModels, amd_cpu(0x19, 0x01));
    FAIL() << "Zen 3 matched a model";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()),
              "no model for this CPU (AuthenticAMD family 0x19 model 0x1); the nearest AMD model is zen4 (AMD Zen 4 "
              "(family 0x19)); use --cpu NAME to pick one, `topdown list --models` lists them");
  }
}

TEST(SelectModel, NameOverridesTheCpuId) {
  EXPECT_EQ(select_model(kShippedModels, amd_cpu(0x19, 0x01), "ZEN5").name, "zen5");
  EXPECT_EQ(select_model(kShippedModels, amd_cpu(0x1A, 0x01), "zen4").name, "zen4");
  EXPECT_EQ(select_model(kShippedModels, amd_cpu(0x19, 0x01), "amd zen 4").name, "zen4");
}

TEST(SelectModel, RejectsAmbiguousAndUnknownNames) {
  try {
    select_model(kShippedModels, amd_cpu(0x1A, 0), "AMD Zen");
    FAIL() << "an ambiguous --cpu was accepted";
  } catch (const Error& error) {
    EXPECT_THAT(error.what(), HasSubstr("fits several models (zen4, zen5)"));
  }
  // Each wrong name against what it should suggest: a typo of a name (one
  // letter of three may be wrong), a word of the titles (Skylake client and
  // server), or nothing when no name is close.
  const std::vector<std::pair<std::string, std::string>> suggestions = {
      {"clz", " (did you mean 'clx'?)"},
      {"sprhmb", " (did you mean 'sprhbm'?)"},
      {"skylake", " (did you mean 'skl' or 'skx'?)"},
      {"Haswel", " (did you mean 'hsw' or 'hsx'?)"},
      {"pentium4", ""},
      {"lake", ""},  // a word of 13 titles is no suggestion
  };
  for (const auto& [name, suggestion] : suggestions) {
    try {
      select_model(kShippedModels, amd_cpu(0x1A, 0), name);
      FAIL() << "--cpu " << name << " was accepted";
    } catch (const Error& error) {
      EXPECT_EQ(std::string(error.what()),
                "--cpu " + name + " names no model" + suggestion + "; `topdown list --models` lists them");
    }
  }
}

TEST(SelectModel, RejectsAFolderWithoutModels) {
  const TempTree tree;
  try {
    select_model(tree.root(), amd_cpu(0x1A, 0));
    FAIL() << "an empty folder gave a model";
  } catch (const Error& error) {
    EXPECT_THAT(error.what(), HasSubstr("no *.model files in " + tree.root().string()));
  }
}

}  // namespace
}  // namespace topdown::model
