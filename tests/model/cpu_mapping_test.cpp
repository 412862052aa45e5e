// Every CPU that Intel's perfmon mapfile assigns to a TMA model we ship gets
// that model, and a CPU we have no model for gets a message naming the
// nearest.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "cpu_ids.h"
#include "model/model.h"

namespace topdown::model {
namespace {

using topdown::testing::intel_cpu;

const std::filesystem::path kModels = std::filesystem::path(TOPDOWN_SOURCE_DIR) / "models";
const std::filesystem::path kMapfile =
    std::filesystem::path(TOPDOWN_SOURCE_DIR) / ".." / "shared" / "reference" / "intel-perfmon" / "mapfile.csv";

TEST(CpuMapping, PerfmonsMapfileRowsGetOurModel) {
  if (!std::filesystem::exists(kMapfile)) GTEST_SKIP() << kMapfile << " is absent; this check needs it";
  // perfmon's folder for each TMA model we ship.
  const std::map<std::string, std::string> ours = {{"HSW", "hsw"}, {"SKL", "skl"}, {"ICL", "icl"}, {"SPR", "spr"}};
  std::ifstream in(kMapfile);
  std::string line;
  int mapped = 0;
  while (std::getline(in, line)) {
    // GenuineIntel-6-3C,V36,/HSW/events/haswell_core.json,core,,,
    if (!line.starts_with("GenuineIntel-") || line.find(",core,") == std::string::npos) continue;
    const size_t slash = line.find(",/") + 2;
    const auto folder = ours.find(line.substr(slash, line.find('/', slash) - slash));
    if (folder == ours.end()) continue;
    const std::string family_model = line.substr(13, line.find(',') - 13);  // "6-3C"
    const auto dash = family_model.find('-');
    const auto family = static_cast<unsigned>(std::stoul(family_model.substr(0, dash), nullptr, 16));
    const auto model = static_cast<unsigned>(std::stoul(family_model.substr(dash + 1), nullptr, 16));
    SCOPED_TRACE(line);
    EXPECT_EQ(select_model(kModels, intel_cpu(family, model), "").name, folder->second);
    ++mapped;
  }
  EXPECT_EQ(mapped, 3 + 6 + 2 + 1);  // Haswell client, Skylake client, Ice Lake client, Sapphire Rapids
}

TEST(CpuMapping, UnknownCpuNamesTheNearestModelAndTheOverride) {
  // Haswell's 0x3C is the lowest model number of any Intel model we ship.
  try {
    select_model(kModels, intel_cpu(6, 0x1A), "");  // Nehalem-EP
    FAIL() << "a model was chosen for a CPU we do not support";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()),
              "no model for this CPU (GenuineIntel family 0x6 model 0x1A); the nearest Intel model is hsw (Intel "
              "Haswell client (TMA 4.5)); use --cpu NAME to pick one, `topdown list --models` lists them");
  }
}

}  // namespace
}  // namespace topdown::model
