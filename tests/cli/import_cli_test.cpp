#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "../support/temp_tree.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;

// Zen 5 level 1 on two CPUs: 8 slots a cycle, 1e6 cycles in all.
const char* kPerCpuPerf =
    "# started on Mon Jan  6 10:00:00 2025\n"
    "\n"
    "CPU0,500000,,ls_not_halted_cyc,1000000,100.00,,\n"
    "CPU1,500000,,ls_not_halted_cyc,1000000,100.00,,\n"
    "CPU0,400000,,cpu/event=0x1a0,umask=0x01/,1000000,100.00,,\n"
    "CPU1,400000,,cpu/event=0x1a0,umask=0x01/,1000000,100.00,,\n"
    "CPU0,1800000,,r100001ea0,1000000,100.00,,\n"
    "CPU1,1800000,,r100001ea0,1000000,100.00,,\n"
    "CPU0,1800000,,de_src_op_disp.all,1000000,100.00,,\n"
    "CPU1,1800000,,de_src_op_disp.all,1000000,100.00,,\n"
    "CPU0,1600000,,EX_RET_OPS,1000000,100.00,,\n"
    "CPU1,1600000,,EX_RET_OPS,1000000,100.00,,\n"
    "CPU0,7,,page-faults,1000000,100.00,,\n"
    "CPU1,<not counted>,,page-faults,0,0.00,,\n";

const nlohmann::json* node(const nlohmann::json& report, const std::string& name) {
  for (const auto& key : {"nodes", "info"}) {
    for (const auto& entry : report[key]) {
      if (entry["name"] == name) return &entry;
    }
  }
  return nullptr;
}

TEST(ImportCli, PerCpuPerfFileGivesTheSameJsonAsStat) {
  TempTree tree;
  const auto file = tree.write("perf.csv", kPerCpuPerf).string();
  auto r = run_command(kTopdown + " import --cpu zen5 --json -o " + tree.root().string() + "/out.json " + file);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto report = nlohmann::json::parse(slurp(tree.root().string() + "/out.json"));
  EXPECT_EQ(report["source"], file);
  EXPECT_FALSE(report.contains("command"));
  EXPECT_EQ(report["model"]["name"], "zen5");
  EXPECT_DOUBLE_EQ(report["level1_sum"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ((*node(report, "Frontend_Bound"))["value"].get<double>(), 0.1);
  EXPECT_DOUBLE_EQ((*node(report, "Bad_Speculation"))["value"].get<double>(), 0.05);
  EXPECT_DOUBLE_EQ((*node(report, "Backend_Bound"))["value"].get<double>(), 0.45);
  EXPECT_DOUBLE_EQ((*node(report, "Retiring"))["value"].get<double>(), 0.4);
  EXPECT_DOUBLE_EQ((*node(report, "SMT_Contention"))["value"].get<double>(), 0.0);
  EXPECT_EQ(report["bottleneck"], "Backend_Bound");
  EXPECT_EQ(report["extra_events"], nlohmann::json::array({"page-faults"}));
  EXPECT_EQ(report["warnings"].size(), 1u);
  EXPECT_NE(report["warnings"][0].get<std::string>().find("assumed off"), std::string::npos);
}

// kPerCpuPerf says nothing of how long it counted: its duration is n/a in
// text, null in JSON (compare reads that back), n/a on the page, never 0 s.
TEST(ImportCli, AnUnknownDurationIsNaNeverZeroSeconds) {
  TempTree tree;
  const auto file = tree.write("perf.csv", kPerCpuPerf).string();
  const std::string import = kTopdown + " import --cpu zen5 ";
  const auto text = run_command(import + file);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.err.substr(0, text.err.find('\n')),
            "topdown: AMD Zen 5 (family 0x1A) (zen5), " + file + ", duration n/a");
  const std::string json = tree.root().string() + "/out.json";
  const std::string page = tree.root().string() + "/out.html";
  ASSERT_EQ(run_command(import + "--json -o " + json + " --html " + page + " " + file).exit_code, 0);
  EXPECT_TRUE(nlohmann::json::parse(slurp(json))["elapsed_s"].is_null());
  EXPECT_NE(slurp(page).find("<dt>duration</dt><dd>n/a</dd>"), std::string::npos);
  const auto compared = run_command(kTopdown + " compare " + json + " " + json);
  EXPECT_EQ(compared.exit_code, 0) << compared.err;
}

// The same event in two groups: Retiring is its pooled count's share, not
// twice it, and the report says the rows were pooled.
TEST(ImportCli, AnEventCountedInTwoGroupsIsNotCountedTwice) {
  TempTree tree;
  const auto file = tree.write("perf.csv",
                               "1000000,,ls_not_halted_cyc,1000000,100.00,,\n"
                               "800000,,cpu/event=0x1a0,umask=0x01/,1000000,100.00,,\n"
                               "3600000,,r100001ea0,1000000,100.00,,\n"
                               "3600000,,de_src_op_disp.all,1000000,100.00,,\n"
                               "1600000,,EX_RET_OPS,500000,50.00,,\n"
                               "1600000,,EX_RET_OPS,500000,50.00,,\n")
                        .string();
  auto r = run_command(kTopdown + " import --cpu zen5 --smt off --json " + file);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto report = nlohmann::json::parse(r.err);
  // 3.2e6 ops counted over the whole 1 ms, of 8e6 slots.
  EXPECT_DOUBLE_EQ((*node(report, "Retiring"))["value"].get<double>(), 0.4);
  ASSERT_EQ(report["warnings"].size(), 1u) << report["warnings"].dump();
  EXPECT_NE(report["warnings"][0].get<std::string>().find("EX_RET_OPS (counted by several groups)"), std::string::npos)
      << report["warnings"][0];
}

// toplev's spelling of the fixed-counter events' kernel-mode counts: the
// Intel models' kernel-time Info metrics divide their _P:SUP twins.
TEST(ImportCli, ToplevKernelCountsGiveTheKernelTimeInfoMetrics) {
  TempTree tree;
  const auto file = tree.write("toplev.csv",
                               "1000000,,CPU_CLK_UNHALTED.THREAD,1000000,100.00,,\n"
                               "250000,,CPU_CLK_UNHALTED.THREAD:sup,1000000,100.00,,\n"
                               "800000,,INST_RETIRED.ANY,1000000,100.00,,\n"
                               "100000,,INST_RETIRED.ANY:sup,1000000,100.00,,\n")
                        .string();
  for (const std::string model : {"hsw", "skl", "icl", "spr"}) {
    SCOPED_TRACE(model);
    auto r = run_command(kTopdown + " import --cpu " + model + " --smt off --info --json " + file);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto report = nlohmann::json::parse(r.err);
    const std::string prefix = model == "hsw" ? "" : "Info_System_";
    const auto* utilization = node(report, prefix + "Kernel_Utilization");
    const auto* cpi = node(report, prefix + "Kernel_CPI");
    ASSERT_TRUE(utilization && cpi);
    EXPECT_DOUBLE_EQ((*utilization)["value"].get<double>(), 0.25) << *utilization;
    EXPECT_DOUBLE_EQ((*cpi)["value"].get<double>(), 2.5) << *cpi;
    EXPECT_TRUE(report["extra_events"].empty()) << report["extra_events"];
  }
}

// An Info metric that is n/a with every event counted names the fact it lacks.
TEST(ImportCli, InfoMetricsThatLackAFactOfTheRunSayWhich) {
  TempTree tree;
  const std::string counts = "CPU_CLK_UNHALTED.REF_TSC 3000000\nmsr/tsc/ 1000000\n";
  const auto without = tree.write("without.counts", counts).string();
  auto json = run_command(kTopdown + " import --cpu spr --smt off --info --json " + without);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto report = nlohmann::json::parse(json.err);
  const auto* utilization = node(report, "Info_System_CPU_Utilization");
  ASSERT_TRUE(utilization);
  EXPECT_TRUE((*utilization)["value"].is_null());
  EXPECT_EQ((*utilization)["unknown_inputs"], nlohmann::json::array({"#num_cpus_online"}));
  auto text = run_command(kTopdown + " import --cpu spr --smt off --info " + without);
  EXPECT_NE(text.err.find("not known: #num_cpus_online"), std::string::npos) << text.err;

  const auto with = tree.write("with.counts", "num_cpus_online 6\n" + counts).string();
  auto known = run_command(kTopdown + " import --cpu spr --smt off --info --json " + with);
  ASSERT_EQ(known.exit_code, 0) << known.err;
  const auto known_report = nlohmann::json::parse(known.err);
  const auto* computed = node(known_report, "Info_System_CPU_Utilization");
  ASSERT_TRUE(computed);
  EXPECT_DOUBLE_EQ((*computed)["value"].get<double>(), 3.0 / 6);
  EXPECT_TRUE((*computed)["unknown_inputs"].empty());
}

// Terminal escapes in a file reach the terminal escaped: in the error that
// quotes a bad line, and in the Events table that lists the file's names.
TEST(ImportCli, ControlBytesOfTheFileAreEscapedOnTheTerminal) {
  TempTree tree;
  const auto bad =
      tree.write("bad.csv", "1000000,,ls_not_halted_cyc,1000000,100.00,,\n\x1b[2J\x1b[31mgarbage\x01,\n").string();
  auto error = run_command(kTopdown + " import --cpu zen5 " + bad);
  EXPECT_EQ(error.exit_code, 125);
  EXPECT_EQ(error.err, "topdown: " + bad +
                           ":2: expected 5 fields separated by ',' like the first row, found 2 in "
                           "'\\x1b[2J\\x1b[31mgarbage\\x01,'\n");

  const auto named = tree.write("named.csv",
                                "1000000,,ls_not_halted_cyc,1000000,100.00,,\n"
                                "7,,\x1b[31mEVIL\x07,1000000,100.00,,\n")
                         .string();
  auto report = run_command(kTopdown + " import --cpu zen5 --smt off " + named);
  ASSERT_EQ(report.exit_code, 0) << report.err;
  EXPECT_EQ(report.err.find('\x1b'), std::string::npos) << report.err;
  EXPECT_NE(report.err.find("  \\x1b[31mEVIL\\x07" + std::string(19, ' ') + "7\n"), std::string::npos) << report.err;
}

TEST(ImportCli, CountsFileWithMissingEventsShowsThemAsNa) {
  TempTree tree;
  const auto file = tree.write("counts.txt",
                               "# zen5, SMT on\n"
                               "smt_enabled 1\n"
                               "interval-s 2\n"
                               "ls_not_halted_cyc 1000000\n"
                               "de_no_dispatch_per_slot.no_ops_from_frontend 800000\n"
                               "de_no_dispatch_per_slot.smt_contention 800000\n"
                               "de_src_op_disp.all 4000000\n"
                               "ex_ret_ops 3600000\n"
                               "ex_ret_instr 2000000\n")
                        .string();
  auto r = run_command(kTopdown + " import --cpu zen5 --json -l2 " + file);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto report = nlohmann::json::parse(r.err);
  EXPECT_DOUBLE_EQ((*node(report, "SMT_Contention"))["value"].get<double>(), 0.1);
  // Backend_Bound through its identity: the file lacks its own event.
  EXPECT_DOUBLE_EQ((*node(report, "Backend_Bound"))["value"].get<double>(), 0.3);
  const auto& mispredicts = *node(report, "Branch_Mispredicts");
  EXPECT_TRUE(mispredicts["value"].is_null());
  EXPECT_EQ(mispredicts["status"], "n/a");
  EXPECT_EQ(mispredicts["missing_events"], nlohmann::json::array({"bp_redirects.resync", "ex_ret_brn_misp"}));
  EXPECT_DOUBLE_EQ((*node(report, "IPC"))["value"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(report["elapsed_s"].get<double>(), 2.0);
  EXPECT_TRUE(report["warnings"].empty());
  // --smt overrides the file.
  auto off = run_command(kTopdown + " import --cpu zen5 --json --smt off " + file);
  ASSERT_EQ(off.exit_code, 0) << off.err;
  EXPECT_DOUBLE_EQ((*node(nlohmann::json::parse(off.err), "SMT_Contention"))["value"].get<double>(), 0.0);
}

const char* kIntervals =
    "1.000000000;500000;;ls_not_halted_cyc;1000000;100.00;;\n"
    "1.000000000;200000;;ex_ret_instr;1000000;100.00;;\n"
    "3.000000000;1000000;;ls_not_halted_cyc;2000000;50.00;;\n"
    "3.000000000;3000000;;ex_ret_instr;2000000;50.00;;\n";

TEST(ImportCli, PerIntervalCsvAndJson) {
  TempTree tree;
  const auto file = tree.write("intervals.csv", kIntervals).string();
  auto csv = run_command(kTopdown + " import --cpu zen5 --csv --per-interval " + file);
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.err.rfind("time,kind,name,level,", 0), 0u) << csv.err;
  EXPECT_NE(csv.err.find("\n1,info,IPC,0,,,0.4,"), std::string::npos) << csv.err;
  EXPECT_NE(csv.err.find("\n3,info,IPC,0,,,3,"), std::string::npos) << csv.err;
  EXPECT_EQ(csv.err.find("\ntime,"), std::string::npos);

  auto json = run_command(kTopdown + " import --cpu zen5 --json --per-interval " + file);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  std::istringstream lines(json.err);
  std::vector<nlohmann::json> reports;
  for (std::string line; std::getline(lines, line);) reports.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_DOUBLE_EQ(reports[1]["time"].get<double>(), 3.0);
  EXPECT_DOUBLE_EQ(reports[1]["elapsed_s"].get<double>(), 2.0);
  EXPECT_EQ(reports[1]["source"], file);
  EXPECT_DOUBLE_EQ(reports[1]["multiplex_ratio"].get<double>(), 0.5);

  // The whole file: counts summed, interval-s the whole time.
  auto whole = run_command(kTopdown + " import --cpu zen5 --json " + file);
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  const auto report = nlohmann::json::parse(whole.err);
  EXPECT_DOUBLE_EQ((*node(report, "IPC"))["value"].get<double>(), 3.2 / 1.5);
  EXPECT_DOUBLE_EQ(report["elapsed_s"].get<double>(), 3.0);

  auto text = run_command(kTopdown + " import --cpu zen5 --per-interval " + file);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_EQ(text.err.rfind("=== time 1 s ===\ntopdown: AMD Zen 5", 0), 0u) << text.err;
  EXPECT_NE(text.err.find("\n=== time 3 s ===\n"), std::string::npos) << text.err;
}

TEST(ImportCli, BadFilesFailWithOneLineAndNoOutputFile) {
  TempTree tree;
  const auto file = tree.write("bad.csv", "10,,cycles,10,100.00,,\n10,,cycles,ten,100.00,,\n").string();
  const auto out = tree.root() / "report.json";
  auto r = run_command(kTopdown + " import --cpu zen5 --json -o " + out.string() + " " + file);
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_EQ(r.err, "topdown: " + file + ":2: run time 'ten' of cycles is not a number\n");
  EXPECT_FALSE(std::filesystem::exists(out));

  const auto truncated = tree.write("cut.csv", std::string(kIntervals).substr(0, 150)).string();
  auto cut = run_command(kTopdown + " import --cpu zen5 --per-interval --csv -o " + out.string() + " " + truncated);
  EXPECT_EQ(cut.exit_code, 125);
  EXPECT_NE(cut.err.find(truncated + ":3: the last line has no end of line: the file is truncated"), std::string::npos)
      << cut.err;
  EXPECT_EQ(std::count(cut.err.begin(), cut.err.end(), '\n'), 1);
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(tree.root()), {}), 2);  // no temporary file left

  auto missing = run_command(kTopdown + " import --cpu zen5 " + tree.root().string() + "/none.csv");
  EXPECT_EQ(missing.exit_code, 125);
  EXPECT_NE(missing.err.find("cannot read import file"), std::string::npos);
}

// -o /dev/null or a pipe: the report goes into it, and the device or pipe
// stays what it was (a file renamed over it would replace it).
TEST(ImportCli, AReportToAPipeIsWrittenIntoThePipe) {
  TempTree tree;
  const auto file = tree.write("per-cpu.csv", kPerCpuPerf).string();
  const auto pipe = tree.root() / "report.pipe";
  ASSERT_EQ(::mkfifo(pipe.c_str(), 0600), 0);
  const int reader = ::open(pipe.c_str(), O_RDONLY | O_NONBLOCK);  // so that topdown's open does not wait
  ASSERT_GE(reader, 0);
  const auto r = run_command(kTopdown + " import --cpu zen5 --smt on -l 1 --csv -o " + pipe.string() + " " + file);
  std::string report(1 << 16, '\0');
  const ssize_t got = ::read(reader, report.data(), report.size());
  ::close(reader);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  ASSERT_GT(got, 0);
  report.resize(static_cast<size_t>(got));
  EXPECT_EQ(report.substr(0, report.find('\n')),
            "kind,name,level,parent,vendor_name,value,unit,over_threshold,"
            "bottleneck,counted_share,status,missing_events");
  EXPECT_NE(report.find("node,Retiring,1,"), std::string::npos) << report;
  EXPECT_TRUE(std::filesystem::is_fifo(pipe));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(tree.root()), {}), 2);  // no temporary file left
}

}  // namespace
}  // namespace topdown::testing
