// A hybrid CPU's recording: the header names each core type's model and
// each group's PMU (data file version 3), and each type's samples are split
// out with its own groups, renumbered.
#include "recording/core_types.h"

#include <gtest/gtest.h>

#include <cstring>

#include "common/error.h"
#include "recording/data_format.h"

namespace topdown::recording {
namespace {

SampledGroup group_on(const std::string& pmu, std::vector<std::string> events) {
  SampledGroup group;
  group.events = std::move(events);
  group.frequency = 1000;
  group.pmu = pmu;
  return group;
}

// Groups P0 (cpu_core), E0 (cpu_atom), P1 (cpu_core); samples of each group
// in turn, each with the values 10*sample+event.
Recording hybrid_recording() {
  Recording recording;
  recording.header.model = "adl";
  recording.header.core_types = {{"P-core", "cpu_core", "adl"}, {"E-core", "cpu_atom", "adl_ecore"}};
  recording.header.groups = {group_on("cpu_core", {"CPU_CLK_UNHALTED.THREAD", "INST_RETIRED.ANY"}),
                             group_on("cpu_atom", {"CPU_CLK_UNHALTED.CORE"}),
                             group_on("cpu_core", {"CPU_CLK_UNHALTED.THREAD", "BR_MISP_RETIRED.ALL_BRANCHES"})};
  for (uint32_t i = 0; i < 6; ++i) {
    Sample sample;
    sample.time = 100 + i;
    sample.group = i % 3;
    sample.symbol = i;
    sample.first_value = static_cast<uint32_t>(recording.values.size());
    for (size_t e = 0; e < recording.header.groups[sample.group].events.size(); ++e) {
      recording.values.push_back(10 * i + e);
    }
    recording.samples.push_back(sample);
  }
  recording.lost_samples = 7;
  recording.warnings = {"a warning of the file"};
  return recording;
}

TEST(SplitByCoreType, EachTypeGetsItsGroupsAndSamples) {
  const std::vector<CoreTypeRecording> parts = split_by_core_type(hybrid_recording());
  ASSERT_EQ(parts.size(), 2u);

  const CoreTypeRecording& p_cores = parts[0];
  EXPECT_EQ(p_cores.type.core_type, "P-core");
  EXPECT_EQ(p_cores.recording.header.model, "adl");
  ASSERT_EQ(p_cores.recording.header.groups.size(), 2u);
  EXPECT_EQ(p_cores.recording.header.groups[1].events[1], "BR_MISP_RETIRED.ALL_BRANCHES");
  // Samples 0, 2, 3, 5 were of groups 0 and 2: now groups 0 and 1.
  ASSERT_EQ(p_cores.recording.samples.size(), 4u);
  const std::vector<std::pair<uint32_t, uint32_t>> expected = {{0, 0}, {2, 1}, {3, 0}, {5, 1}};
  for (size_t s = 0; s < expected.size(); ++s) {
    const Sample& sample = p_cores.recording.samples[s];
    EXPECT_EQ(sample.symbol, expected[s].first);
    EXPECT_EQ(sample.group, expected[s].second);
    EXPECT_EQ(p_cores.recording.values[sample.first_value + 1], 10 * expected[s].first + 1);
  }
  EXPECT_EQ(p_cores.recording.lost_samples, 7u);
  EXPECT_EQ(p_cores.recording.warnings.size(), 1u);

  const CoreTypeRecording& e_cores = parts[1];
  EXPECT_EQ(e_cores.type.pmu, "cpu_atom");
  EXPECT_EQ(e_cores.recording.header.model, "adl_ecore");
  ASSERT_EQ(e_cores.recording.header.groups.size(), 1u);
  ASSERT_EQ(e_cores.recording.samples.size(), 2u);
  EXPECT_EQ(e_cores.recording.samples[1].group, 0u);
  EXPECT_EQ(e_cores.recording.values[e_cores.recording.samples[1].first_value], 40u);
  EXPECT_EQ(e_cores.recording.lost_samples, 0u) << "the file's lost samples are reported once";
  EXPECT_TRUE(e_cores.recording.warnings.empty());
}

TEST(SplitByCoreType, ATypeWithoutSamplesIsLeftOut) {
  Recording recording = hybrid_recording();
  std::erase_if(recording.samples, [](const Sample& sample) { return sample.group != 1; });
  const std::vector<CoreTypeRecording> parts = split_by_core_type(std::move(recording));
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].type.core_type, "E-core");
  EXPECT_EQ(parts[0].recording.samples.size(), 2u);
  EXPECT_EQ(parts[0].recording.lost_samples, 7u);
}

TEST(SplitByCoreType, OneKindOfCoreIsOnePart) {
  Recording recording = hybrid_recording();
  recording.header.core_types.clear();
  const std::vector<CoreTypeRecording> parts = split_by_core_type(std::move(recording));
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_TRUE(parts[0].type.pmu.empty());
  EXPECT_EQ(parts[0].recording.samples.size(), 6u);
  EXPECT_EQ(parts[0].recording.header.groups.size(), 3u);
}

uint32_t version_of(const std::string& file_start) {
  uint32_t version = 0;
  std::memcpy(&version, file_start.data() + kMagic.size(), sizeof version);
  return version;
}

TEST(HybridHeader, CoreTypesAndPmusReadBackFromVersionThree) {
  FileHeader file;
  file.header = hybrid_recording().header;
  file.streams = {{0, {1, 2}, true}, {1, {3}, true}, {2, {4, 5}, true}};
  const std::string start = encode_file_start(file);
  EXPECT_EQ(version_of(start), 3u);
  const FileHeader read = parse_header_json(start.substr(kFileStartBytes), "hybrid.data");
  ASSERT_EQ(read.header.core_types.size(), 2u);
  EXPECT_EQ(read.header.core_types[1].core_type, "E-core");
  EXPECT_EQ(read.header.core_types[1].pmu, "cpu_atom");
  EXPECT_EQ(read.header.core_types[1].model, "adl_ecore");
  ASSERT_EQ(read.header.groups.size(), 3u);
  EXPECT_EQ(read.header.groups[0].pmu, "cpu_core");
  EXPECT_EQ(read.header.groups[1].pmu, "cpu_atom");

  // One kind of core: no core types, no pmu, and version 2 as before.
  FileHeader plain = file;
  plain.header.core_types.clear();
  for (SampledGroup& group : plain.header.groups) group.pmu.clear();
  const std::string plain_start = encode_file_start(plain);
  EXPECT_EQ(version_of(plain_start), 2u);
  EXPECT_EQ(plain_start.find("pmu"), std::string::npos);
  EXPECT_TRUE(parse_header_json(plain_start.substr(kFileStartBytes), "plain.data").header.core_types.empty());
}

TEST(HybridHeader, AGroupOfNoCoreTypeIsCorrupt) {
  FileHeader file;
  file.header = hybrid_recording().header;
  file.header.groups[1].pmu = "cpu_lowpower";
  const std::string start = encode_file_start(file);
  try {
    parse_header_json(start.substr(kFileStartBytes), "hybrid.data");
    FAIL() << "a group of no core type was read";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("hybrid.data: corrupt header"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("a group of no core type's PMU"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace topdown::recording
