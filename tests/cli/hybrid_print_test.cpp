// `topdown stat --cpu adl --print-perf` / `--print-groups`: a hybrid CPU's
// two trees, each planned on its own PMU with its own model's counters.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;

std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with(prefix)) lines.push_back(line);
  }
  return lines;
}

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
  EXPECT_NE(r.err.find("topdown import --cpu adl --smt off -l 2 perf-cpu_core.csv"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("topdown import --cpu adl_ecore --smt off -l 2 perf-cpu_atom.csv"), std::string::npos) << r.err;
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
  EXPECT_NE(r.err.find("# P-core (cpu_core), then: topdown report --cpu adl "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("# E-core (cpu_atom), then: topdown report --cpu adl_ecore "), std::string::npos) << r.err;
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

}  // namespace
}  // namespace topdown::testing
