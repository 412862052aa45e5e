// Hybrid CPUs: the P-core model names its E-core companion, and selection
// gives the model of each core type.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "../support/temp_tree.h"
#include "common/error.h"
#include "cpu_ids.h"
#include "model/model.h"

namespace topdown::model {
namespace {

using ::testing::HasSubstr;
using topdown::testing::intel_cpu;
using topdown::testing::TempTree;

const std::filesystem::path kModels = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models";

std::vector<std::string> cpu_list(const Model& model) {
  std::vector<std::string> cpus;
  for (const CpuMatch& match : model.cpus) cpus.push_back(to_string(match));
  return cpus;
}

TEST(HybridModels, AlderLakeGivesItsPCoreAndECoreTrees) {
  const std::vector<Model> models = with_companion(select_model(kModels, intel_cpu(6, 0x97)), kModels);
  ASSERT_EQ(models.size(), 2u);
  EXPECT_EQ(models[0].name, "adl");
  EXPECT_EQ(models[0].pmu, "cpu_core");
  EXPECT_EQ(models[0].core_type, "P-core");
  EXPECT_EQ(models[1].name, "adl_ecore");
  EXPECT_EQ(models[1].pmu, "cpu_atom");
  EXPECT_EQ(models[1].core_type, "E-core");
}

// Panther Lake's three CPU ids (perfmon's mapfile: 0xCC, 0xD5, 0xE5) each
// give its Cougar Cove tree on cpu_core and its Darkmont tree on cpu_atom.
TEST(HybridModels, PantherLakeGivesItsPCoreAndECoreTrees) {
  for (const unsigned model_id : {0xCCu, 0xD5u, 0xE5u}) {
    SCOPED_TRACE(model_id);
    const std::vector<Model> models = with_companion(select_model(kModels, intel_cpu(6, model_id)), kModels);
    ASSERT_EQ(models.size(), 2u);
    EXPECT_EQ(models[0].name, "ptl");
    EXPECT_EQ(models[0].version, "5.2");
    EXPECT_EQ(models[0].pmu, "cpu_core");
    EXPECT_EQ(models[1].name, "ptl_ecore");
    EXPECT_EQ(models[1].pmu, "cpu_atom");
    EXPECT_EQ(models[1].core_type, "E-core");
  }
}

TEST(HybridModels, EveryCompanionIsTheOtherCoreTypeOfTheSameCpus) {
  int hybrid = 0;
  for (const ModelHeader& header : load_headers(kModels)) {
    if (header.companion.empty()) continue;
    SCOPED_TRACE(header.name);
    const Model model = load_model(header.source);
    ++hybrid;
    const std::vector<Model> pair = with_companion(model, kModels);
    ASSERT_EQ(pair.size(), 2u);
    EXPECT_EQ(pair[1].name, model.companion);
    EXPECT_EQ(cpu_list(pair[1]), cpu_list(model));
    EXPECT_TRUE(pair[1].companion.empty()) << "a companion that names another would chain";
    // Selection by CPU id picks the model that names the companion, so a
    // hybrid CPU always gets both trees.
    for (const CpuMatch& match : model.cpus) {
      EXPECT_EQ(select_model(kModels, intel_cpu(match.family, match.model_min)).name, model.name);
    }
  }
  EXPECT_EQ(hybrid, 5);  // adl, mtl, lnl, arl, ptl
}

TEST(HybridModels, ACpuWithOneCoreTypeHasOneModel) {
  const std::vector<Model> models = with_companion(select_model(kModels, {}, "spr"), kModels);
  ASSERT_EQ(models.size(), 1u);
  EXPECT_EQ(models[0].name, "spr");
  EXPECT_EQ(with_companion(select_model(kModels, {}, "adl_ecore"), kModels).size(), 1u);
}

TEST(HybridModels, CompanionOfTheSamePmuIsRefused) {
  TempTree tree;
  const std::string header = "[model]\ntitle = Test\ncpus = Intel 6 0x97\nevent_table = none\n";
  tree.write("big.model", header + "name = big\npmu = cpu_core\ncore_type = P-core\ncompanion = small\n" +
                              "[node Retiring]\nformula = 1\n");
  tree.write("small.model",
             header + "name = small\npmu = cpu_core\ncore_type = E-core\n[node Retiring]\nformula = 1\n");
  try {
    with_companion(select_model(tree.root(), {}, "big"), tree.root());
    FAIL() << "a companion on the same PMU was accepted";
  } catch (const Error& error) {
    EXPECT_THAT(error.what(), HasSubstr("model big names small"));
    EXPECT_THAT(error.what(), HasSubstr("pmu 'cpu_core'"));
  }
}

}  // namespace
}  // namespace topdown::model
