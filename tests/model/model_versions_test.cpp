// Versions of one model name: NAME picks the newest (and so does the CPU
// id), NAME@VERSION pins one; the shipped servers have TMA 5.2 beside the
// versions they had before.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "../support/error_of.h"
#include "../support/temp_tree.h"
#include "cpu_ids.h"
#include "model/model.h"

namespace topdown::model {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using topdown::testing::error_of;
using topdown::testing::intel_cpu;
using topdown::testing::TempTree;

const std::filesystem::path kShippedModels = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models";

std::string versioned(const std::string& name, const std::string& version, const std::string& node) {
  return "[model]\nname = " + name + "\ntitle = Model " + name + " " + version +
         "\ncpus = Intel 6 0x3C\nevent_table = none\n" + (version.empty() ? "" : "version = " + version + "\n") +
         "\n[node " + node + "]\nformula = 1\n";
}

TEST(ModelVersions, AreOrderedAsDecimalNumbers) {
  EXPECT_LT(compare_versions("5.01", "5.1"), 0);
  EXPECT_LT(compare_versions("5.1", "5.2"), 0);
  EXPECT_GT(compare_versions("5.2", "5.01"), 0);
  EXPECT_EQ(compare_versions("5.1", "5.10"), 0);
  EXPECT_LT(compare_versions("4", "4.5"), 0);
  EXPECT_GT(compare_versions("10.0", "9.99"), 0);
  EXPECT_EQ(compare_versions("05.2", "5.2"), 0);
  EXPECT_TRUE(is_version("5.2"));
  EXPECT_TRUE(is_version("4"));
  for (const char* bad : {"", "5.", ".2", "5.2.1", "v5", "5,2"}) EXPECT_FALSE(is_version(bad)) << bad;
}

TEST(ModelVersions, NameIsTheNewestAndNameAtVersionPinsOne) {
  const TempTree tree;
  // File names do not decide: the versions in the files do.
  tree.write("a.model", versioned("x", "5.01", "Old"));
  tree.write("b.model", versioned("x", "5.2", "New"));
  tree.write("c.model", versioned("x", "5.1", "Middle"));
  EXPECT_EQ(select_model(tree.root(), {}, "x").nodes.front().name, "New");
  EXPECT_EQ(select_model(tree.root(), {}, "x@5.01").nodes.front().name, "Old");
  EXPECT_EQ(select_model(tree.root(), {}, "X@5.1").nodes.front().name, "Middle");
  EXPECT_EQ(select_model(tree.root(), {}, "Model x@5.2").nodes.front().name, "New");
  EXPECT_EQ(select_model(tree.root(), intel_cpu(6, 0x3C)).nodes.front().name, "New");
  EXPECT_EQ(select_model(tree.root(), {}, "x@5.1").versioned_name(), "x@5.1");
}

TEST(ModelVersions, AnUnknownVersionNamesTheVersionsThereAre) {
  const TempTree tree;
  tree.write("x.model", versioned("x", "5.2", "New"));
  tree.write("x@5.01.model", versioned("x", "5.01", "Old"));
  tree.write("y.model", versioned("y", "", "Only"));
  EXPECT_EQ(error_of([&] { select_model(tree.root(), {}, "x@5.3"); }),
            "--cpu x@5.3: model x has no version 5.3; choose one of x@5.2, x@5.01 or x for the newest; "
            "`topdown list --models` lists them");
  EXPECT_THAT(error_of([&] { select_model(tree.root(), {}, "x@new"); }), HasSubstr("model x has no version new;"));
  EXPECT_THAT(error_of([&] { select_model(tree.root(), {}, "x@"); }), HasSubstr("model x has no version ;"));
  EXPECT_EQ(error_of([&] { select_model(tree.root(), {}, "y@1"); }),
            "--cpu y@1: model y has no version 1; it has no versions, choose it with --cpu y; "
            "`topdown list --models` lists them");
}

TEST(ModelVersions, OneVersionTwiceOrBesideAnUnversionedFileIsRefused) {
  const TempTree twice;
  twice.write("a.model", versioned("x", "5.1", "A"));
  twice.write("b.model", versioned("x", "5.10", "B"));
  EXPECT_THAT(error_of([&] { load_headers(twice.root()); }), HasSubstr("both define the model 'x@5.10'"));
  const TempTree mixed;
  mixed.write("a.model", versioned("x", "", "A"));
  mixed.write("b.model", versioned("x", "5.2", "B"));
  EXPECT_THAT(error_of([&] { load_headers(mixed.root()); }),
              HasSubstr("both define the model 'x@5.2'; rename or remove one, or give each its own version"));
}

TEST(ModelVersions, AVersionMustBeANumberAndANameHasNoAt) {
  const TempTree tree;
  const auto bad_version = tree.write("v.model", versioned("x", "five", "A"));
  EXPECT_EQ(error_of([&] { load_header(bad_version); }),
            bad_version.string() + ":6:11: version 'five' is not a version number; write it as 5.2 or 4");
  const auto at_in_name = tree.write("n.model", versioned("x@5", "", "A"));
  EXPECT_THAT(error_of([&] { load_header(at_in_name); }),
              StartsWith(at_in_name.string() + ":2:8: model name 'x@5' contains a blank or '@'"));
}

// The servers with TMA 5.2: the CPU id and the bare name choose it, the
// version shipped before stays selectable as NAME@VERSION, unchanged.
TEST(ModelVersions, ShippedServersDefaultToTma52AndKeepTheirEarlierVersion) {
  struct Server {
    const char* name;
    unsigned model;
    const char* earlier;
  };
  for (const Server& server : {Server{"icx", 0x6A, "5.1"}, Server{"spr", 0x8F, "5.01"}, Server{"emr", 0xCF, "5.1"},
                               Server{"gnr", 0xAD, "5.1"}}) {
    SCOPED_TRACE(server.name);
    const Model by_id = select_model(kShippedModels, intel_cpu(6, server.model));
    EXPECT_EQ(by_id.name, server.name);
    EXPECT_EQ(by_id.version, "5.2");
    EXPECT_EQ(by_id.methodology, "TMA 5.2");
    EXPECT_EQ(select_model(kShippedModels, {}, server.name).source, by_id.source);
    EXPECT_EQ(select_model(kShippedModels, {}, std::string(server.name) + "@5.2").source, by_id.source);
    // 5.2 puts the memory bandwidth and latency nodes under L3_Miss_Bound.
    ASSERT_NE(by_id.find("MEM_Bandwidth"), nullptr);
    EXPECT_EQ(by_id.find("MEM_Bandwidth")->parent, "L3_Miss_Bound");
    EXPECT_EQ(by_id.find("DRAM_Bound"), nullptr);

    const std::string pinned_name = std::string(server.name) + "@" + server.earlier;
    const Model pinned = select_model(kShippedModels, {}, pinned_name);
    EXPECT_EQ(pinned.version, server.earlier);
    EXPECT_EQ(pinned.source, kShippedModels / (pinned_name + ".model"));
    EXPECT_EQ(pinned.event_tables.front(), "intel_" + pinned_name);
    ASSERT_NE(pinned.find("MEM_Bandwidth"), nullptr);
    EXPECT_EQ(pinned.find("MEM_Bandwidth")->parent, "DRAM_Bound");
    EXPECT_EQ(pinned.find("L3_Miss_Bound"), nullptr);
  }
}

}  // namespace
}  // namespace topdown::model
