// docs/failures.md: what the topdown binary does with bad input and faults
// (message, exit status, output file), end to end.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>

#include "../collect/test_support.h"
#include "../support/temp_tree.h"
#include "cpu/cpu_info.h"
#include "recording/data_file.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;
// perf's software events count without a PMU: the live path on any machine.
const std::string kSoftware = std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/software.model";
const std::string kStatSoftware = kTopdown + " stat --model " + kSoftware;

// Single quotes for /bin/sh, which run_command goes through.
std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// topdown's own failures are one line "topdown: ..." on stderr.
void expect_one_line(const CommandResult& r, const std::string& expected) {
  EXPECT_EQ(r.err, "topdown: " + expected + "\n");
}

long entries_in(const std::filesystem::path& dir) {
  return std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator{});
}

TEST(FailuresCli, NoPmuIsOneLineAndNoOutputFile) {
  if (has_pmu()) GTEST_SKIP() << "this machine has a PMU; the no-PMU path is not reachable here";
  if (cpu::read_cpuid().vendor != cpu::Vendor::Amd) GTEST_SKIP() << "counting with the zen5 model needs an AMD host";
  TempTree tree;
  const auto out = tree.root() / "report.txt";
  auto r = run_command(kTopdown + " stat --cpu zen5 -o " + out.string() + " -- true");
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_EQ(r.err.rfind("topdown: cannot count '", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("no hardware PMU: this kernel exposes no CPU performance counters (a VM without a virtual "
                       "PMU?); enable the vPMU in the hypervisor or run on bare metal\n"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
  EXPECT_EQ(entries_in(tree.root()), 0) << "no report and no temporary file";
}

TEST(FailuresCli, NoModelForThisCpu) {
  // A model directory whose only model is for a CPU no machine running this has.
  TempTree tree;
  tree.write("p5.model",
             "[model]\nname = p5\ntitle = Pentium\ncpus = Intel 0x5\nevent_table = software\n"
             "[node Busy]\nformula = 1\n");
  auto r = run_command("TOPDOWN_MODELS=" + tree.root().string() + " " + kTopdown + " stat -- true");
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_EQ(r.err.rfind("topdown: no model for this CPU (", 0), 0u) << r.err;
  // An Intel host is told the nearest Intel model, any other that there is
  // none for its vendor.
  const cpu::CpuId host = cpu::read_cpuid();
  const std::string nearest = host.vendor == cpu::Vendor::Intel
                                  ? "); the nearest Intel model is p5 (Pentium); "
                                  : "), nor for any " + cpu::vendor_name(host.vendor) + " CPU; ";
  EXPECT_NE(r.err.find(nearest + "use --cpu NAME to pick one, `topdown list --models` lists them\n"), std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
}

TEST(FailuresCli, CpuNamingSeveralModels) {
  auto r = run_command(kTopdown + " stat --cpu zen --print-groups");
  EXPECT_EQ(r.exit_code, 125);
  expect_one_line(r, "--cpu zen fits several models (zen4, zen5); use --cpu NAME with one of these names");
}

TEST(FailuresCli, CpuNamingAVersionTheModelHasNot) {
  auto r = run_command(kTopdown + " stat --cpu spr@5.3 --print-groups");
  EXPECT_EQ(r.exit_code, 125);
  expect_one_line(r,
                  "--cpu spr@5.3: model spr has no version 5.3; choose one of spr@5.2, spr@5.01 or spr for the "
                  "newest; `topdown list --models` lists them");
}

TEST(FailuresCli, UnknownEventInAModelFile) {
  TempTree tree;
  const auto model = tree.write("typo.model",
                                "[model]\nname = typo\ntitle = Typo\ncpus = AMD 0x1A\nevent_table = software\n"
                                "[node Busy]\nformula = task\\-clock / tsak\\-clock\n");
  // Event tables are found beside the model.
  tree.mkdir("events");
  std::filesystem::copy_file(std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/events/software.events",
                             tree.root() / "events" / "software.events");
  auto r = run_command(kTopdown + " stat --model " + model.string() + " --print-groups");
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_EQ(r.err.rfind("topdown: unknown event 'tsak-clock' for ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
}

TEST(FailuresCli, ModelFileErrorsNameFileLineAndColumn) {
  TempTree tree;
  const auto model = tree.write("bad.model",
                                "[model]\nname = bad\ntitle = Bad\ncpus = AMD 0x1A\nevent_table = software\n"
                                "[node A]\nformula = B + 1\n[node B]\nformula = 2 * A\n");
  auto r = run_command(kTopdown + " stat --model " + model.string() + " --print-groups");
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_EQ(r.err.rfind("topdown: " + model.string() + ":7:11: cycle among formulas: A -> B -> A", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
}

TEST(FailuresCli, OutputDirectoryThatDoesNotExist) {
  TempTree tree;
  const std::string out = (tree.root() / "no-such-dir" / "report.txt").string();
  auto r = run_command(kTopdown + " stat --cpu zen5 --print-groups -o " + out);
  EXPECT_EQ(r.exit_code, 125);
  expect_one_line(
      r, "cannot write output file " + out + ": No such file or directory; choose a writable directory with -o");
  EXPECT_EQ(entries_in(tree.root()), 0);
}

TEST(FailuresCli, OutputPathThatIsADirectoryLeavesNoTemporaryFile) {
  TempTree tree;
  const auto dir = tree.mkdir("reports");
  auto r = run_command(kTopdown + " stat --cpu zen5 --print-groups -o " + dir.string());
  EXPECT_EQ(r.exit_code, 125);
  expect_one_line(r, "cannot write output file " + dir.string() + ": Is a directory; nothing was written");
  EXPECT_EQ(entries_in(tree.root()), 1);  // the directory itself, nothing beside it
  EXPECT_EQ(entries_in(dir), 0);
}

TEST(FailuresCli, OutputDirectoryThatIsNotWritable) {
  TempTree tree;
  const auto dir = tree.mkdir("read-only");
  std::filesystem::permissions(dir, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec |
                                        std::filesystem::perms::group_read | std::filesystem::perms::group_exec |
                                        std::filesystem::perms::others_read | std::filesystem::perms::others_exec);
  // Root writes anywhere: run topdown as nobody then.
  const std::string as_user = ::geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : std::string();
  const std::string out = (dir / "report.txt").string();
  auto r = run_command(as_user + kTopdown + " stat --cpu zen5 --print-groups -o " + out);
  std::filesystem::permissions(dir, std::filesystem::perms::owner_all);
  EXPECT_EQ(r.exit_code, 125) << r.err;
  expect_one_line(r, "cannot write output file " + out + ": Permission denied; choose a writable directory with -o");
  EXPECT_EQ(entries_in(dir), 0);
}

TEST(FailuresCli, FailedRunKeepsThePreviousReport) {
  TempTree tree;
  const auto out = tree.write("report.txt", "the previous report\n");
  auto r = run_command(kTopdown + " stat --cpu zen5 --print-groups -e NO_SUCH_EVENT.ANY -o " + out.string());
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_EQ(slurp(out.string()), "the previous report\n");
  EXPECT_EQ(entries_in(tree.root()), 1);
}

TEST(FailuresCli, NoCommandToMeasure) {
  auto r = run_command(kStatSoftware);
  EXPECT_EQ(r.exit_code, 125);
  expect_one_line(r, "no command to measure; usage: topdown stat [options] -- CMD [ARGS...] (or -p PID, or -a)");
}

TEST(FailuresCli, CommandNotFoundIs127AndNothingIsWritten) {
  SKIP_WITHOUT_PERF_EVENTS();
  TempTree tree;
  const auto out = tree.root() / "report.txt";
  auto r = run_command(kStatSoftware + " -o " + out.string() + " -- topdown-no-such-command --flag");
  EXPECT_EQ(r.exit_code, 127);
  expect_one_line(r,
                  "cannot run 'topdown-no-such-command': No such file or directory; check the command name and "
                  "PATH");
  EXPECT_EQ(entries_in(tree.root()), 0);
}

TEST(FailuresCli, CommandNotExecutableIs126) {
  SKIP_WITHOUT_PERF_EVENTS();
  TempTree tree;
  const auto script = tree.write("script.sh", "#!/bin/sh\necho ran\n");  // not executable
  auto r = run_command(kStatSoftware + " -- " + script.string());
  EXPECT_EQ(r.exit_code, 126);
  expect_one_line(r, "cannot run '" + script.string() + "': Permission denied; check the command name and PATH");
  EXPECT_TRUE(r.out.empty());
  auto directory = run_command(kStatSoftware + " -- " + tree.root().string());
  EXPECT_EQ(directory.exit_code, 126);
}

TEST(FailuresCli, WorkloadKilledBySignalStillGetsItsSummary) {
  SKIP_WITHOUT_PERF_EVENTS();
  auto text = run_command(kStatSoftware + " -- sh -c 'kill -SEGV $$'");
  EXPECT_EQ(text.exit_code, 128 + SIGSEGV);
  EXPECT_NE(text.err.find("topdown: Software events (test model) (software), sh -c kill -SEGV $$, "), std::string::npos)
      << text.err;
  EXPECT_NE(text.err.find(" s, killed by SIGSEGV\n"), std::string::npos) << text.err;
  EXPECT_NE(text.err.find("  On_CPU "), std::string::npos) << text.err;
  EXPECT_NE(text.err.find("warning: the workload was killed by SIGSEGV; the counts cover it until then\n"),
            std::string::npos)
      << text.err;

  TempTree tree;
  const auto out = tree.root() / "report.json";
  auto json = run_command(kStatSoftware + " --json -o " + out.string() + " -- sh -c 'kill -KILL $$'");
  EXPECT_EQ(json.exit_code, 128 + SIGKILL);
  EXPECT_TRUE(json.err.empty()) << json.err;
  const auto report = nlohmann::json::parse(slurp(out.string()));
  EXPECT_EQ(report["exit_code"], 128 + SIGKILL);
  EXPECT_EQ(report["signal"], SIGKILL);
}

TEST(FailuresCli, WorkloadExitStatusPassesThrough) {
  SKIP_WITHOUT_PERF_EVENTS();
  EXPECT_EQ(run_command(kStatSoftware + " -- sh -c 'exit 7'").exit_code, 7);
  EXPECT_EQ(run_command(kStatSoftware + " -- false").exit_code, 1);
}

TEST(FailuresCli, ShellMetacharactersReachTheCommandUnchanged) {
  SKIP_WITHOUT_PERF_EVENTS();
  TempTree tree;
  const auto injected = tree.root() / "injected";
  const std::vector<std::string> args = {
      "a b", "$HOME", "*", ";", "`id`", ">x", "&&", "$(touch " + injected.string() + ")", "'", "\"", "\\", "--", ""};
  std::string command = kStatSoftware + " -- printf '%s|'";
  std::string expected;
  for (const auto& arg : args) {
    command += " " + quoted(arg);
    expected += arg + "|";
  }
  auto r = run_command(command);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, expected);
  EXPECT_FALSE(std::filesystem::exists(injected));
}

// Root through sudo: the command runs as the user who called sudo (or
// --user), never as root unless asked.
TEST(FailuresCli, UnderSudoTheCommandRunsAsTheCallingUser) {
  SKIP_WITHOUT_PERF_EVENTS();
  if (::geteuid() != 0) GTEST_SKIP() << "needs root (it plays sudo's part)";
  const std::string sudo = "SUDO_USER=nobody SUDO_UID=65534 SUDO_GID=65534 ";
  auto as_caller = run_command(sudo + kStatSoftware + " -- id -u");
  EXPECT_EQ(as_caller.exit_code, 0) << as_caller.err;
  EXPECT_EQ(as_caller.out, "65534\n");
  EXPECT_EQ(run_command(sudo + kStatSoftware + " --keep-root -- id -u").out, "0\n");
  EXPECT_EQ(run_command(kStatSoftware + " --user nobody -- id -u").out, "65534\n");
  auto unknown = run_command(kStatSoftware + " --user no-such-user-here -- id -u");
  EXPECT_EQ(unknown.exit_code, 125);
  EXPECT_NE(unknown.err.find("no-such-user-here"), std::string::npos) << unknown.err;
  EXPECT_EQ(unknown.out, "");
}

TEST(FailuresCli, UnwritableOutputStopsBeforeTheWorkloadRuns) {
  SKIP_WITHOUT_PERF_EVENTS();
  TempTree tree;
  const auto ran = tree.root() / "ran";
  const std::string out = (tree.root() / "missing" / "report.txt").string();
  auto r = run_command(kStatSoftware + " -o " + out + " -- touch " + ran.string());
  EXPECT_EQ(r.exit_code, 125);
  expect_one_line(
      r, "cannot write output file " + out + ": No such file or directory; choose a writable directory with -o");
  EXPECT_FALSE(std::filesystem::exists(ran));
}

TEST(FailuresCli, ImportOfBadNumbersIsOneLine) {
  TempTree tree;
  for (const char* bad : {"nan", "-5", "inf", "1e400"}) {
    const auto file = tree.write("bad.txt", std::string("ls_not_halted_cyc ") + bad + "\n").string();
    auto r = run_command(kTopdown + " import --cpu zen5 " + file);
    EXPECT_EQ(r.exit_code, 125) << bad;
    expect_one_line(r, file + ":1: value '" + bad + "' of ls_not_halted_cyc is not a number >= 0");
  }
}

TEST(FailuresCli, ImportOfOverflowingCountsIsNaNamedNeverInf) {
  TempTree tree;
  const auto file = tree.write("huge.txt",
                               "ls_not_halted_cyc 1e308\nls_not_halted_cyc 1e308\nex_ret_ops 1000\n"
                               "de_src_op_disp.all 1000\n")
                        .string();
  auto r = run_command(kTopdown + " import --cpu zen5 -v " + file);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("not counted: ls_not_halted_cyc"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("warning: event ls_not_halted_cyc has a count that is not a finite number"), std::string::npos)
      << r.err;
  const std::regex not_a_number(R"((^|[^A-Za-z])(nan|inf)([^A-Za-z]|$))", std::regex::icase);
  EXPECT_FALSE(std::regex_search(r.err, not_a_number)) << r.err;
  auto json = run_command(kTopdown + " import --cpu zen5 --json " + file);
  EXPECT_FALSE(nlohmann::json::parse(json.err, nullptr, false).is_discarded()) << json.err;
}

TEST(FailuresCli, ImportOfEmptyAndBinaryFiles) {
  TempTree tree;
  const auto empty = tree.write("empty.csv", "").string();
  auto r = run_command(kTopdown + " import --cpu zen5 " + empty);
  EXPECT_EQ(r.exit_code, 125);
  expect_one_line(r, "import file " + empty +
                         " holds no counts (it is empty or all comments); expected perf stat -x output or EVENT VALUE "
                         "lines");
  // This test's own program (kTopdown may be a script that starts it under an emulator).
  const std::string program = std::filesystem::read_symlink("/proc/self/exe").string();
  auto binary = run_command(kTopdown + " import --cpu zen5 " + program);
  EXPECT_EQ(binary.exit_code, 125);
  const std::string neither = ":1: neither perf stat -x output nor an 'EVENT VALUE' line: '\\x7fELF\\x02";
  EXPECT_EQ(binary.err.rfind("topdown: " + program + neither, 0), 0u) << binary.err;
  EXPECT_EQ(std::count(binary.err.begin(), binary.err.end(), '\n'), 1);
  // Valid UTF-8 of the file may pass (printable.h); no control byte does.
  EXPECT_TRUE(std::none_of(binary.err.begin(), binary.err.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return (byte < 0x20 && c != '\n') || byte == 0x7f;
  })) << binary.err;
}

TEST(FailuresCli, RecordToAnUnwritableFileNeverRunsTheCommand) {
  TempTree tree;
  const auto marker = tree.root() / "ran";
  auto r = run_command(kTopdown + " record --model " + kSoftware + " -o " +
                       (tree.root() / "no/such/dir/x.data").string() + " -- touch " + marker.string());
  EXPECT_EQ(r.exit_code, 125);
  expect_one_line(r, "cannot write " + (tree.root() / "no/such/dir/x.data").string() +
                         ": No such file or directory; choose another file with -o");
  EXPECT_FALSE(std::filesystem::exists(marker));
}

// A recording cut anywhere reads up to its last whole record, with a
// warning; a damaged one is one line naming the file.
TEST(FailuresCli, TruncatedAndCorruptDataFiles) {
  TempTree tree;
  const std::string file = (tree.root() / "run.data").string();
  auto r = run_command(kTopdown + " record --model " + kSoftware + " -o " + file + " -- " + TOPDOWN_DEMO_BIN +
                       " alu --iterations 50000000");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string bytes = slurp(file);
  const std::size_t whole = recording::read_data_file(file).samples.size();
  ASSERT_GT(whole, 5u);
  const std::string cut = (tree.root() / "cut.data").string();
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() - 100);
  const recording::Recording truncated = recording::read_data_file(cut);
  EXPECT_TRUE(truncated.truncated);
  EXPECT_LE(truncated.samples.size(), whole);
  EXPECT_GT(truncated.samples.size(), whole - 3);
  EXPECT_EQ(truncated.warnings.front().rfind(cut + " ends inside a record", 0), 0u) << truncated.warnings.front();

  const std::string damaged = (tree.root() / "damaged.data").string();
  std::string corrupt = bytes;
  const std::size_t header_end =
      24 + static_cast<unsigned char>(corrupt[16]) + 256u * static_cast<unsigned char>(corrupt[17]);
  corrupt[header_end + 6] = 3;  // the first record's size: 3 bytes
  corrupt[header_end + 7] = 0;
  std::ofstream(damaged, std::ios::binary) << corrupt;
  try {
    recording::read_data_file(damaged);
    ADD_FAILURE() << "no error for a record size of 3";
  } catch (const Error& error) {
    EXPECT_EQ(std::string(error.what()), damaged + ": corrupt record at byte " + std::to_string(header_end) +
                                             " (a record size of 3 bytes); the file is damaged: record again");
  }
}

TEST(FailuresCli, ReportOfBadPerfScriptFiles) {
  TempTree tree;
  const std::string sampling = std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/software_sampling.model";
  const auto out = tree.root() / "report.txt";
  const std::string report = kTopdown + " report --model " + sampling + " -o " + out.string() + " ";
  const std::string fields = "perf script -F comm,tid,pid,time,period,event,ip,sym,dso,srcline";
  const auto empty = tree.write("empty.txt", "").string();
  auto r = run_command(report + empty);
  EXPECT_EQ(r.exit_code, 125);
  expect_one_line(r, empty + " holds no samples: convert a leader-sampled perf record with " + fields);
  const auto no_period =
      tree.write("no-period.txt",
                 "app 7 1.000001: 5 cpu-clock: 401000 main (/app)\napp 7 1.000002: cpu-clock: 401000 "
                 "main (/app)\n")
          .string();
  r = run_command(report + no_period);
  EXPECT_EQ(r.exit_code, 125);
  expect_one_line(
      r, no_period + ":2: no period field after the time: convert a leader-sampled perf record with " + fields);
  const auto unknown = tree.write("unknown.txt", "app 7 1.000001: 5 cycles: 401000 main (/app)\n").string();
  r = run_command(report + unknown);
  EXPECT_EQ(r.exit_code, 125);
  expect_one_line(r, unknown +
                         ":1: event cycles is not an event of the software_sampling model; record the groups topdown "
                         "record --print-perf prints for it");
  r = run_command(report + "--min-share 101 " + unknown);
  EXPECT_EQ(r.exit_code, 125);
  expect_one_line(r, "--min-share 101: give a percentage from 0 to 100");
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_EQ(entries_in(tree.root()), 3) << "the three inputs, no report and no temporary file";
}

// topdown compare: reports it cannot compare are one line, exit 125.
// A regression gate over a change of TMA version would fire on the moved
// nodes: compare refuses, naming the --cpu NAME@VERSION that pins one; each
// report's JSON records the version it was evaluated with.
TEST(FailuresCli, CompareRefusesReportsOfTwoTmaVersions) {
  TempTree tree;
  const auto counts = tree.write("spr.counts",
                                 "smt_enabled 1\nperf_metrics 1\ninterval-s 1.0\nTOPDOWN.SLOTS 1200000\n"
                                 "PERF_METRICS.FRONTEND_BOUND 200000\nPERF_METRICS.BAD_SPECULATION 100000\n"
                                 "PERF_METRICS.RETIRING 400000\nPERF_METRICS.BACKEND_BOUND 300000\n"
                                 "INT_MISC.UOP_DROPPING 12000\nCPU_CLK_UNHALTED.THREAD 300000\n")
                          .string();
  const std::string old_version = (tree.root() / "spr-5.01.json").string();
  const std::string new_version = (tree.root() / "spr-5.2.json").string();
  ASSERT_EQ(run_command(kTopdown + " import --cpu spr@5.01 --json -o " + old_version + " " + counts).exit_code, 0);
  ASSERT_EQ(run_command(kTopdown + " import --cpu spr --json -o " + new_version + " " + counts).exit_code, 0);
  EXPECT_EQ(nlohmann::json::parse(slurp(old_version))["model"]["tma_version"], "5.01");
  EXPECT_EQ(nlohmann::json::parse(slurp(new_version))["model"]["tma_version"], "5.2");

  auto versions = run_command(kTopdown + " compare " + old_version + " " + new_version);
  EXPECT_EQ(versions.exit_code, 125);
  expect_one_line(versions, old_version + " is a report of TMA 5.01 and " + new_version +
                                " of TMA 5.2: the versions place nodes differently; measure both with one version, "
                                "pinned with --cpu spr@5.01 (or spr@5.2)");
  EXPECT_EQ(run_command(kTopdown + " compare " + old_version + " " + old_version).exit_code, 0);
}

TEST(FailuresCli, CompareRefusesReportsItCannotCompare) {
  TempTree tree;
  const std::string perf = std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/zen5-ptrchase-3runs.csv";
  const std::string level1 = (tree.root() / "l1.json").string();
  const std::string level2 = (tree.root() / "l2.json").string();
  const std::string software = (tree.root() / "software.json").string();
  ASSERT_EQ(run_command(kTopdown + " import --cpu zen5 --smt off --json -o " + level1 + " " + perf).exit_code, 0);
  ASSERT_EQ(run_command(kTopdown + " import --cpu zen5 --smt off -l2 --json -o " + level2 + " " + perf).exit_code, 0);
  ASSERT_EQ(run_command(kStatSoftware + " --json -o " + software + " -- true").exit_code, 0);

  auto levels = run_command(kTopdown + " compare " + level1 + " " + level2);
  EXPECT_EQ(levels.exit_code, 125);
  expect_one_line(levels, level1 + " goes to level 1 and " + level2 + " to level 2: make both with the same -l");

  auto models = run_command(kTopdown + " compare " + level1 + " " + software);
  EXPECT_EQ(models.exit_code, 125);
  expect_one_line(models, level1 + " is a report of model zen5 and " + software +
                              " of model software: compare reports of one model");

  const auto other_tool = tree.write("bench.json", "{\"context\": {}, \"benchmarks\": []}\n").string();
  auto foreign = run_command(kTopdown + " compare " + level1 + " " + other_tool);
  EXPECT_EQ(foreign.exit_code, 125);
  expect_one_line(foreign, other_tool +
                               ":1: not a topdown report (no \"format\": \"topdown-1\"); compare the --json output of "
                               "topdown stat, import or report, or a perf stat file");

  const std::string whole = slurp(level1);
  const auto cut = tree.write("cut.json", whole.substr(0, whole.size() / 2)).string();
  auto truncated = run_command(kTopdown + " compare " + level1 + " " + cut);
  EXPECT_EQ(truncated.exit_code, 125);
  expect_one_line(truncated, cut + ":1: not complete JSON: the file is cut off, or not a topdown --json report");

  auto gate = run_command(kTopdown + " compare --fail-if 'Backend_Bound=2' " + level1 + " " + level1);
  EXPECT_EQ(gate.exit_code, 125);
  expect_one_line(gate,
                  "--fail-if 'Backend_Bound=2': expected NODE>+LIMIT or NODE<-LIMIT (points for tree nodes, percent "
                  "for Info metrics), for example 'Backend_Bound>+2', or FUNCTION:NODE>+LIMIT for a function of a "
                  "profile");

  auto missing = run_command(kTopdown + " compare " + level1 + " " + (tree.root() / "nope.json").string());
  EXPECT_EQ(missing.exit_code, 125);
  expect_one_line(missing, "cannot read " + (tree.root() / "nope.json").string() +
                               ": give a saved --json report, a perf stat file or a recording");
}

}  // namespace
}  // namespace topdown::testing
