// `topdown stat --cpu adl --print-perf` / `--print-groups`: a hybrid CPU's
// two trees, each planned on its own PMU with its own model's counters; an
// Arm big.LITTLE system's core kinds alike (`--root` of the fake sysfs
// tests/data/sysfs-biglittle: C1-Pro CPUs 0-5 on armv8_pmuv3_0, C1-Ultra
// CPUs 6-7 on armv8_pmuv3_1); a Panther Lake laptop's (tests/data/sysfs-ptl:
// family 6 model 0xCC, Cougar Cove CPUs 0-3 on cpu_core, Darkmont 4-15 on cpu_atom).
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../support/temp_tree.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;
const std::string kBigLittle = std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/sysfs-biglittle";
const std::string kPantherLake = std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/sysfs-ptl";

// The PMUs of the events of a perf -e list: "cpu_core", "msr", ...
std::set<std::string> pmus_of(const std::string& events) {
  std::set<std::string> pmus;
  const std::regex event(R"((?:^|[{,'])([a-z_]+)/)");
  for (auto it = std::sregex_iterator(events.begin(), events.end(), event); it != std::sregex_iterator(); ++it) {
    pmus.insert((*it)[1]);
  }
  return pmus;
}

TEST(HybridPrintPerf, OnePerfCommandPerCoreTypeOnItsPmu) {
  const CommandResult r = run_command(kTopdown + " stat --cpu adl --smt off -l 2 --print-perf -- ./app");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> commands = lines_starting(r.err, "perf stat -x,");
  ASSERT_EQ(commands.size(), 2u) << r.err;
  EXPECT_TRUE(commands[0].starts_with("perf stat -x, -o perf-cpu_core.csv -e '")) << commands[0];
  EXPECT_TRUE(commands[1].starts_with("perf stat -x, -o perf-cpu_atom.csv -e '")) << commands[1];
  const std::set<std::string> p_core_pmus = pmus_of(commands[0]);
  const std::set<std::string> e_core_pmus = pmus_of(commands[1]);
  EXPECT_TRUE(p_core_pmus.count("cpu_core")) << commands[0];
  EXPECT_FALSE(p_core_pmus.count("cpu_atom") || p_core_pmus.count("cpu")) << commands[0];
  EXPECT_TRUE(e_core_pmus.count("cpu_atom")) << commands[1];
  EXPECT_FALSE(e_core_pmus.count("cpu_core") || e_core_pmus.count("cpu")) << commands[1];
  // The E-core tree's own events, by their names.
  EXPECT_NE(commands[1].find(",name=TOPDOWN_FE_BOUND.ALL/"), std::string::npos) << commands[1];
  // Each file imports with its own tree.
  EXPECT_NE(r.err.find("topdown import --cpu adl@5.1 --smt off -l 2 perf-cpu_core.csv"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("topdown import --cpu adl_ecore@4 --smt off -l 2 perf-cpu_atom.csv"), std::string::npos)
      << r.err;
}

TEST(HybridPrintPerf, PantherLakeIsDetectedAndPlansEachCoreTypeOnItsPmu) {
  const CommandResult r = run_command(kTopdown + " stat --root " + kPantherLake + " -l 2 --print-perf -- true");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> commands = lines_starting(r.err, "perf stat -x,");
  ASSERT_EQ(commands.size(), 2u) << r.err;
  EXPECT_TRUE(commands[0].starts_with("perf stat -x, -o perf-cpu_core.csv -e '")) << commands[0];
  EXPECT_TRUE(commands[1].starts_with("perf stat -x, -o perf-cpu_atom.csv -e '")) << commands[1];
  const std::set<std::string> p_core_pmus = pmus_of(commands[0]);
  const std::set<std::string> e_core_pmus = pmus_of(commands[1]);
  EXPECT_TRUE(p_core_pmus.count("cpu_core")) << commands[0];
  EXPECT_FALSE(p_core_pmus.count("cpu_atom") || p_core_pmus.count("cpu")) << commands[0];
  EXPECT_TRUE(e_core_pmus.count("cpu_atom")) << commands[1];
  EXPECT_FALSE(e_core_pmus.count("cpu_core") || e_core_pmus.count("cpu")) << commands[1];
  // The fixture's cpu_core has the topdown-* events: the P-cores read the PERF_METRICS fields.
  EXPECT_NE(commands[0].find(",name=PERF_METRICS.FRONTEND_BOUND/"), std::string::npos) << commands[0];
  EXPECT_NE(commands[1].find(",name=TOPDOWN_FE_BOUND.ALL/"), std::string::npos) << commands[1];
  EXPECT_NE(r.err.find("topdown import --cpu ptl@5.2 --smt off -l 2 perf-cpu_core.csv"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("topdown import --cpu ptl_ecore@4 --smt off -l 2 perf-cpu_atom.csv"), std::string::npos)
      << r.err;
}

TEST(HybridPrintPerf, OnePerfRecordPerCoreTypeOnItsPmuIntoItsFile) {
  const CommandResult r = run_command(kTopdown + " record --cpu adl -l 1 -c 100003 --print-perf -- ./app");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<std::string> commands = lines_starting(r.err, "perf record ");
  ASSERT_EQ(commands.size(), 2u) << r.err;
  const std::string pmus[] = {"cpu_core", "cpu_atom"};
  for (size_t i = 0; i < 2; ++i) {
    const std::string& command = commands[i];
    EXPECT_TRUE(command.starts_with("perf record -c 100003 -e '{" + pmus[i] + "/")) << command;
    EXPECT_NE(command.find(" -o perf-" + pmus[i] + ".data -- ./app"), std::string::npos) << command;
    EXPECT_EQ(pmus_of(command), std::set<std::string>{pmus[i]}) << command;
    EXPECT_NE(command.find("}:S'"), std::string::npos) << command;
  }
  EXPECT_NE(r.err.find("# P-core (cpu_core), then: topdown report --cpu adl@5.1 "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("# E-core (cpu_atom), then: topdown report --cpu adl_ecore@4 "), std::string::npos) << r.err;
  EXPECT_NE(commands[1].find(",name=TOPDOWN_FE_BOUND.ALL/"), std::string::npos) << commands[1];
}

TEST(HybridPrintPerf, TheECoreModelAlonePlansOnCpuAtom) {
  const CommandResult r = run_command(kTopdown + " stat --cpu adl_ecore --smt off --print-groups");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.starts_with("model adl_ecore (SMT off): ")) << r.err;
  EXPECT_NE(r.err.find("[cpu_atom, "), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("[cpu, "), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("[cpu_core, "), std::string::npos) << r.err;
}

TEST(HybridPrintPerf, GroupsOfBothTreesNameTheirCoreType) {
  const CommandResult r = run_command(kTopdown + " stat --cpu adl --smt off --print-groups");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t p_cores = r.err.find("model adl, P-core (SMT off): ");
  const size_t e_cores = r.err.find("model adl_ecore, E-core (SMT off): ");
  ASSERT_NE(p_cores, std::string::npos) << r.err;
  ASSERT_NE(e_cores, std::string::npos) << r.err;
  EXPECT_LT(p_cores, e_cores);
  EXPECT_EQ(r.err.substr(p_cores, e_cores - p_cores).find("[cpu_atom, "), std::string::npos);
  EXPECT_EQ(r.err.substr(e_cores).find("[cpu_core, "), std::string::npos);
}

TEST(HybridList, NamesThePmuAndTheOtherTree) {
  const CommandResult r = run_command(kTopdown + " list --cpu adl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string all = r.out + r.err;
  EXPECT_NE(all.find("the P-core tree of a hybrid CPU, counted on its cpu_core PMU; the other core type's: "
                     "topdown list --cpu adl_ecore"),
            std::string::npos)
      << all;
}

TEST(BigLittleStat, GroupsOfEachKindOnItsPmuBigCoresFirst) {
  const CommandResult r = run_command(kTopdown + " stat --root " + kBigLittle + " --smt off --print-groups");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t big = r.err.find("model arm-c1-ultra, Arm C1 Ultra (SMT off): ");
  const size_t little = r.err.find("model arm-c1-pro, Arm C1 Pro (SMT off): ");
  ASSERT_NE(big, std::string::npos) << r.err;
  ASSERT_NE(little, std::string::npos) << r.err;
  ASSERT_LT(big, little);
  const std::string big_groups = r.err.substr(big, little - big);
  const std::string little_groups = r.err.substr(little);
  EXPECT_NE(big_groups.find("[armv8_pmuv3_1, "), std::string::npos) << big_groups;
  EXPECT_EQ(big_groups.find("[armv8_pmuv3_0, "), std::string::npos) << big_groups;
  EXPECT_NE(little_groups.find("[armv8_pmuv3_0, "), std::string::npos) << little_groups;
  EXPECT_EQ(little_groups.find("[armv8_pmuv3_1, "), std::string::npos) << little_groups;
  EXPECT_NE(big_groups.find("on 6 general counters + 1 fixed"), std::string::npos) << big_groups;
  EXPECT_NE(big_groups.find(" CPU_CYCLES(fixed)"), std::string::npos) << big_groups;
}

TEST(BigLittleStat, OnePerfCommandPerKindOnItsPmu) {
  const CommandResult r = run_command(kTopdown + " stat --root " + kBigLittle + " --smt off --print-perf -- ./app");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("is assumed"), std::string::npos) << "the fixture names its PMUs: " << r.err;
  const std::vector<std::string> commands = lines_starting(r.err, "perf stat -x,");
  ASSERT_EQ(commands.size(), 2u) << r.err;
  EXPECT_TRUE(commands[0].starts_with("perf stat -x, -o perf-armv8_pmuv3_1.csv -e '")) << commands[0];
  EXPECT_TRUE(commands[1].starts_with("perf stat -x, -o perf-armv8_pmuv3_0.csv -e '")) << commands[1];
  EXPECT_NE(commands[0].find("armv8_pmuv3_1/config=0x11,name=CPU_CYCLES/"), std::string::npos) << commands[0];
  EXPECT_EQ(commands[0].find("armv8_pmuv3_0/"), std::string::npos) << commands[0];
  EXPECT_NE(commands[1].find("armv8_pmuv3_0/config=0x11,name=CPU_CYCLES/"), std::string::npos) << commands[1];
  EXPECT_EQ(commands[1].find("armv8_pmuv3_1/"), std::string::npos) << commands[1];
  EXPECT_NE(r.err.find("topdown import --cpu arm-c1-ultra --smt off -l 1 perf-armv8_pmuv3_1.csv"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("topdown import --cpu arm-c1-pro --smt off -l 1 perf-armv8_pmuv3_0.csv"), std::string::npos)
      << r.err;
}

// The fixture with little cores of a part no model fits (Cortex-A55's
// 0xD05, r1p0).
class UnmodelledLittleCores : public ::testing::Test {
 protected:
  UnmodelledLittleCores() {
    std::filesystem::copy(kBigLittle, tree.root(), std::filesystem::copy_options::recursive);
    for (int index = 0; index <= 5; ++index) {
      tree.write("sys/devices/system/cpu/cpu" + std::to_string(index) + "/regs/identification/midr_el1",
                 "0x00000000411fd050\n");
    }
  }
  static size_t count_of(const std::string& text, const std::string& part) {
    size_t count = 0;
    for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
    return count;
  }
  TempTree tree;
};

const std::string kUncountedLittle =
    "topdown: warning: CPUs 0-5 are not counted: no model fits their cores (implementer 0x41 part 0xD05 r1p0), and "
    "--cpu cannot give them one";

TEST_F(UnmodelledLittleCores, StatSaysOnceWhichCpusAreNotCountedAndWhatToDo) {
  const CommandResult r = run_command(kTopdown + " stat --root " + tree.root().string() + " --smt off --print-groups");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(count_of(r.err, kUncountedLittle), 1u) << r.err;
  EXPECT_NE(r.err.find("add a model with `cpus = Arm 0x41 0xD05`"), std::string::npos) << r.err;
  EXPECT_EQ(count_of(r.err, "topdown: warning:"), 1u) << r.err;
  // The big cores alone, on their own PMU.
  EXPECT_NE(r.err.find("model arm-c1-ultra (SMT off): "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("[armv8_pmuv3_1, "), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("[armv8_pmuv3_0, "), std::string::npos) << r.err;
}

TEST_F(UnmodelledLittleCores, InfoSaysItToo) {
  const CommandResult r = run_command(kTopdown + " info --root " + tree.root().string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(count_of(r.err, kUncountedLittle), 1u) << r.err;
  EXPECT_NE(r.err.find("core kind:      cpus 0-5: implementer 0x41 part 0xD05 r1p0, no model"), std::string::npos)
      << r.err;
}

TEST(BigLittleStat, EveryKindCountedNeedsNoWarning) {
  const CommandResult r = run_command(kTopdown + " stat --root " + kBigLittle + " --smt off --print-groups");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
}

TEST(BigLittleStat, AnotherMachinesCopyIsNotCounted) {
  const CommandResult r = run_command(kTopdown + " stat --root " + kBigLittle + " -- true");
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_NE(r.err.find("counts nothing here; add --print-perf or --print-groups"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace topdown::testing
