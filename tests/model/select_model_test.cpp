// Choosing a model reads the [model] sections alone; a CPU or a --cpu name
// without a model gets the nearest models named.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "../support/error_of.h"
#include "../support/temp_tree.h"
#include "cpu_ids.h"
#include "model/model.h"

namespace topdown::model {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using topdown::testing::amd_cpu;
using topdown::testing::cpu_id;
using topdown::testing::error_of;
using topdown::testing::intel_cpu;
using topdown::testing::TempTree;

const std::filesystem::path kShippedModels = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models";

std::string header(const std::string& name, const std::string& cpus) {
  return "# " + name + "\n[model]\nname = " + name + "\ntitle = Model " + name + "\ncpus = " + cpus +
         "\nevent_table = none\n";
}

// A tree load_model refuses (a node without formula) after a good header.
constexpr const char* kBrokenTree = "[node Broken]\nparent = Nowhere\n";

TEST(ModelHeader, StopsAtTheSectionAfterModel) {
  const TempTree tree;
  const auto file =
      tree.write("x.model", header("x", "Intel 6 0x3C, AMD 0x19 0x10-0x1F") + "counters = 4\n" +
                                "pmu = cpu_core\ncore_type = P-core\nmethodology = TMA 9\n" + kBrokenTree);
  const ModelHeader read = load_header(file);
  EXPECT_EQ(read.name, "x");
  EXPECT_EQ(read.title, "Model x");
  EXPECT_EQ(read.source, file);
  EXPECT_EQ(read.pmu, "cpu_core");
  EXPECT_EQ(read.core_type, "P-core");
  EXPECT_EQ(read.methodology, "TMA 9");
  EXPECT_EQ(read.counters.general, 4u);
  ASSERT_EQ(read.cpus.size(), 2u);
  EXPECT_EQ(read.cpus[1].family, 0x19u);
  EXPECT_EQ(read.cpus[1].model_max, 0x1Fu);
  EXPECT_THAT(error_of([&] { load_model(file); }), HasSubstr("has no formula"));
}

TEST(ModelHeader, IsWhatLoadModelReadsForEveryShippedModel) {
  const std::vector<ModelHeader> headers = load_headers(kShippedModels);
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kShippedModels)) {
    if (entry.path().extension() != ".model") continue;
    ++files;
    const Model whole = load_model(entry.path());
    const auto same = std::find_if(headers.begin(), headers.end(),
                                   [&](const ModelHeader& header) { return header.source == entry.path(); });
    ASSERT_NE(same, headers.end()) << entry.path();
    EXPECT_TRUE(*same == static_cast<const ModelHeader&>(whole)) << entry.path();
  }
  EXPECT_EQ(headers.size(), files);
}

TEST(ModelHeader, FindsModelAfterOtherSections) {
  const TempTree tree;
  const auto file = tree.write("late.model", "[constants]\nWidth = 4\n\n" + header("late", "AMD 0x1A") + kBrokenTree);
  EXPECT_EQ(load_header(file).name, "late");
}

TEST(ModelHeader, RefusesAHeaderAsLoadModelDoes) {
  const TempTree tree;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"name = x\n[model]\n", ":1:1: key outside any section"},
      {"[node A]\nformula = 1\n", ":1:1: no [model] section"},
      {"[model]\nname = x\ntitle = X\nevent_table = x\n", ":1:1: [model] has no 'cpus'"},
      {"[model]\nname = x\ntitle = X\ncolour = red\n", ":4:1: unknown key 'colour' in [model]"},
      {header("x", "AMD 0x19 0x20-0x10"),
       ":5:8: bad cpus entry 'AMD 0x19 0x20-0x10': model range '0x20-0x10' is not MIN-MAX"},
  };
  for (const auto& [text, message] : cases) {
    const auto file = tree.write("bad.model", text);
    const std::string from_header = error_of([&] { load_header(file); });
    EXPECT_THAT(from_header, StartsWith(file.string() + message));
    EXPECT_EQ(from_header, error_of([&] { load_model(file); }));
  }
}

TEST(SelectModel, ReadsOnlyTheHeadersOfModelsNotChosen) {
  const TempTree tree;
  tree.write("broken.model", header("broken", "Intel 6 0x3C") + kBrokenTree);
  tree.write("good.model", header("good", "Intel 6 0x3D") + "[node Whole]\nformula = 1\n");
  EXPECT_EQ(select_model(tree.root(), intel_cpu(6, 0x3D)).nodes.size(), 1u);
  EXPECT_EQ(select_model(tree.root(), amd_cpu(0x1A, 0), "Model g").name, "good");
  EXPECT_THAT(error_of([&] { select_model(tree.root(), intel_cpu(6, 0x3C)); }), HasSubstr("has no formula"));
}

TEST(SelectModel, NamesTheNearestModelOfTheVendor) {
  const TempTree tree;
  tree.write("a.model", header("low", "Intel 6 0x10-0x1F"));
  tree.write("b.model", header("high", "Intel 6 0x41, Intel 6 0x50"));
  tree.write("c.model", header("other", "Intel 15 0x30"));
  tree.write("d.model", header("amd", "AMD 0x19 0x30"));
  auto nearest_to = [&](unsigned family, unsigned model) {
    return error_of([&] { select_model(tree.root(), intel_cpu(family, model)); });
  };
  // 0x30 is 0x11 above low's last model and 0x11 below high's first.
  EXPECT_THAT(nearest_to(6, 0x30), HasSubstr("(GenuineIntel family 0x6 model 0x30); the nearest Intel models are "
                                             "low (Model low), high (Model high);"));
  EXPECT_THAT(nearest_to(6, 0x31), HasSubstr("; the nearest Intel model is high (Model high);"));
  EXPECT_THAT(nearest_to(6, 0x2F), HasSubstr("; the nearest Intel model is low (Model low);"));
  // The nearest family first, then the nearest model number in it.
  EXPECT_THAT(nearest_to(15, 0x10), HasSubstr("; the nearest Intel model is other (Model other);"));
  EXPECT_THAT(nearest_to(7, 0x31), HasSubstr("; the nearest Intel model is high (Model high);"));
  EXPECT_EQ(error_of([&] { select_model(tree.root(), cpu_id(cpu::Vendor::Arm, "", 0x41, 0xD0C)); }),
            "no model for this CPU (Arm family 0x41 model 0xD0C), nor for any Arm CPU; use --cpu NAME to pick one, "
            "`topdown list --models` lists them");
}

TEST(SelectModel, NamesBothCoresOfAHybridCpuWithoutAModel) {
  // 0x96 is one below Alder Lake's 0x97; no other shipped model is as near.
  const std::string message = error_of([&] { select_model(kShippedModels, intel_cpu(6, 0x96)); });
  EXPECT_THAT(message,
              HasSubstr("the nearest Intel models are adl (Intel Alder Lake / Raptor Lake P-core (TMA "
                        "5.1)), adl_ecore (Intel Alder Lake / Raptor Lake E-core (Gracemont) (E-core TMA 4));"));
}

}  // namespace
}  // namespace topdown::model
