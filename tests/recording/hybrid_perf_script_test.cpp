// perf script of a hybrid CPU's perf record (groups on cpu_core and on
// cpu_atom, events spelled PMU/EVENT/ as perf prints them there): each
// group's events are matched by its core type's model.
#include <gtest/gtest.h>

#include <filesystem>

#include "common/error.h"
#include "events/model_resolver.h"
#include "model/model.h"
#include "recording/perf_script.h"
#include "support/temp_tree.h"

namespace topdown::recording {
namespace {

using testing::TempTree;

const std::filesystem::path kModels = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models";

const char* kHybridScript =
    "app 7 1.000001: 3000 cpu_core/CPU_CLK_UNHALTED.THREAD/: 401000 main (/usr/bin/app)\n"
    "app 7 1.000001: 2500 cpu_core/INST_RETIRED.ANY/: 401000 main (/usr/bin/app)\n"
    "app 7 1.000002: 1000 cpu_atom/CPU_CLK_UNHALTED.CORE/: 401100 spin (/usr/bin/app)\n"
    "app 7 1.000002: 400 cpu_atom/INST_RETIRED.ANY/: 401100 spin (/usr/bin/app)\n"
    "app 7 1.000003: 3300 cpu_core/CPU_CLK_UNHALTED.THREAD/: 401000 main (/usr/bin/app)\n";

class HybridPerfScript : public ::testing::Test {
 protected:
  HybridPerfScript()
      : p_core_(model::load_model(kModels / "adl.model")),
        e_core_(model::load_model(kModels / "adl_ecore.model")),
        p_resolver_(events::offline_resolver_config(p_core_)),
        e_resolver_(events::offline_resolver_config(e_core_)) {}

  Recording read(const std::vector<ScriptModel>& models) {
    return read_perf_script(tree_.write("script.txt", kHybridScript), models);
  }

  static std::vector<uint64_t> deltas(const Recording& recording, size_t sample) {
    const Sample& s = recording.samples[sample];
    const auto size = recording.header.groups[s.group].events.size();
    return {recording.values.begin() + s.first_value, recording.values.begin() + s.first_value + size};
  }

  TempTree tree_;
  model::Model p_core_;
  model::Model e_core_;
  events::Resolver p_resolver_;
  events::Resolver e_resolver_;
};

TEST_F(HybridPerfScript, EachGroupIsMatchedByItsCoreTypesModel) {
  const Recording recording = read({{p_core_, p_resolver_}, {e_core_, e_resolver_}});
  ASSERT_EQ(recording.header.core_types.size(), 2u);
  EXPECT_EQ(recording.header.core_types[0].core_type, "P-core");
  // Versioned, so that report evaluates with the version read with.
  EXPECT_EQ(recording.header.core_types[0].model, "adl@5.1");
  EXPECT_EQ(recording.header.core_types[1].pmu, "cpu_atom");
  EXPECT_EQ(recording.header.core_types[1].model, "adl_ecore@4");
  EXPECT_EQ(recording.header.model, "adl@5.1");
  ASSERT_EQ(recording.header.groups.size(), 2u);
  EXPECT_EQ(recording.header.groups[0].pmu, "cpu_core");
  // Each name as import matches it: the cycles feed both events of their
  // encoding in the type's own table (the P-cores' THREAD_P, the E-cores' CORE_P).
  EXPECT_EQ(recording.header.groups[0].events,
            (std::vector<std::string>{"CPU_CLK_UNHALTED.THREAD", "CPU_CLK_UNHALTED.THREAD_P", "INST_RETIRED.ANY"}));
  EXPECT_EQ(recording.header.groups[1].pmu, "cpu_atom");
  EXPECT_EQ(recording.header.groups[1].events,
            (std::vector<std::string>{"CPU_CLK_UNHALTED.CORE", "CPU_CLK_UNHALTED.CORE_P", "INST_RETIRED.ANY"}));
  ASSERT_EQ(recording.samples.size(), 3u);
  EXPECT_EQ(recording.samples[1].group, 1u);
  EXPECT_EQ(deltas(recording, 0), (std::vector<uint64_t>{3000, 3000, 2500}));
  EXPECT_EQ(deltas(recording, 1), (std::vector<uint64_t>{1000, 1000, 400}));
  EXPECT_EQ(deltas(recording, 2), (std::vector<uint64_t>{3300, 3300, 0}));
  EXPECT_TRUE(recording.warnings.empty());
}

TEST_F(HybridPerfScript, TheECoreModelAloneKeepsTheECoreSamples) {
  const Recording recording = read({{e_core_, e_resolver_}});
  ASSERT_EQ(recording.header.core_types.size(), 1u);
  EXPECT_EQ(recording.header.core_types[0].core_type, "E-core");
  EXPECT_EQ(recording.header.model, "adl_ecore@4");
  ASSERT_EQ(recording.header.groups.size(), 1u);
  ASSERT_EQ(recording.samples.size(), 1u);
  EXPECT_EQ(deltas(recording, 0), (std::vector<uint64_t>{1000, 1000, 400}));
  ASSERT_EQ(recording.warnings.size(), 1u);
  EXPECT_NE(recording.warnings[0].find("the samples of cpu_core are left out"), std::string::npos)
      << recording.warnings[0];
}

TEST_F(HybridPerfScript, AModelOfNeitherCoreTypeIsRefused) {
  const model::Model icl = model::load_model(kModels / "icl.model");
  const events::Resolver resolver(events::offline_resolver_config(icl));
  try {
    read({{icl, resolver}});
    FAIL() << "a hybrid file was read with a model of one kind of core";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("counted on cpu_atom and cpu_core, the core types of a hybrid CPU"),
              std::string::npos)
        << error.what();
    EXPECT_NE(std::string(error.what()).find("--cpu adl"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace topdown::recording
