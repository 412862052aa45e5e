// Issue 31, "never a destroyed file": every output of every subcommand
// written to a symbolic link, a character device, a FIFO with a reader, a
// full device and its own input, and what is left afterwards. The devices
// are made with mknod in a temporary directory (never the system's /dev),
// which needs root; docs/failures.md lists the outcomes.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "run_command.h"
#include "support/temp_tree.h"

namespace topdown::testing {
namespace {

namespace fs = std::filesystem;

const std::string kTopdown = TOPDOWN_BIN;
const std::string kData = std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/";
const std::string kPerfFile = kData + "zen5-branchmiss-3runs.csv";
const std::string kOtherPerfFile = kData + "zen5-ptrchase-3runs.csv";

// What an output is written into.
enum class Into { Symlink, NullDevice, Fifo, FullDevice, OwnInput };

// One output of one subcommand: `command` with {IN} (the file it reads, a
// fresh copy of `input`) and {OUT} (the output path) filled in.
struct Output {
  std::string name;
  std::string command;
  std::string input;  // empty: the output cannot be the command's input (list's stdout)
};

std::string filled(std::string command, const std::string& in, const std::string& out) {
  for (const auto& [key, value] : {std::pair<std::string_view, std::string>{"{IN}", in}, {"{OUT}", out}}) {
    for (size_t at; (at = command.find(key)) != std::string::npos;) command.replace(at, key.size(), value);
  }
  return command;
}

std::string last_line(const std::string& text) {
  const size_t end = text.ends_with('\n') ? text.size() - 1 : text.size();
  const size_t start = text.rfind('\n', end == 0 ? 0 : end - 1);
  return text.substr(start == std::string::npos ? 0 : start + 1, end - (start == std::string::npos ? 0 : start + 1));
}

std::string contents(const fs::path& file) { return slurp(file.string()); }

bool is_device(const fs::path& file, unsigned major_number, unsigned minor_number) {
  struct stat node {};
  return ::lstat(file.c_str(), &node) == 0 && S_ISCHR(node.st_mode) &&
         node.st_rdev == makedev(major_number, minor_number);
}

std::vector<std::string> hidden_files(const fs::path& dir) {
  std::vector<std::string> hidden;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().filename().string().starts_with('.')) hidden.push_back(entry.path().filename().string());
  }
  return hidden;
}

class OutputFault : public ::testing::TestWithParam<std::tuple<Output, Into>> {
 public:
  // One recording for report's outputs, made once.
  static void SetUpTestSuite() {
    if (::geteuid() != 0) return;
    recording_tree_ = new TempTree();
    const std::string data = (recording_tree_->root() / "run.data").string();
    const auto r = run_command(kTopdown + " record --model " + kData + "software.model -o " + data + " -- " +
                               TOPDOWN_DEMO_BIN + " faults-and-compute");
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  static void TearDownTestSuite() {
    delete recording_tree_;
    recording_tree_ = nullptr;
  }
  static fs::path recording() { return recording_tree_->root() / "run.data"; }

 private:
  static TempTree* recording_tree_;
};

TempTree* OutputFault::recording_tree_ = nullptr;

TEST_P(OutputFault, LeavesLinksDevicesAndInputsWhole) {
  if (::geteuid() != 0) GTEST_SKIP() << "mknod of the test devices needs root";
  const auto& [output, into] = GetParam();
  if (into == Into::OwnInput && output.input.empty()) GTEST_SKIP() << "the shell, not topdown, opens list's stdout";
  TempTree tree;
  const fs::path dir = tree.root();
  std::string original = "list reads nothing";
  if (!output.input.empty()) original = output.input == "recording" ? contents(recording()) : contents(output.input);
  ASSERT_FALSE(original.empty());
  const fs::path input = tree.write("input", original);
  // A model names its event tables relative to itself.
  if (output.input.ends_with(".model")) fs::create_directory_symlink(kData + "events", dir / "events");

  fs::path out;
  std::string command;
  switch (into) {
    case Into::Symlink:
      tree.write("target", "old");
      out = dir / "link";
      fs::create_symlink("target", out);
      break;
    case Into::NullDevice:
      out = dir / "null";
      ASSERT_EQ(::mknod(out.c_str(), S_IFCHR | 0666, makedev(1, 3)), 0);
      break;
    case Into::FullDevice:
      out = dir / "full";
      ASSERT_EQ(::mknod(out.c_str(), S_IFCHR | 0666, makedev(1, 7)), 0);
      break;
    case Into::Fifo:
      out = dir / "fifo";
      ASSERT_EQ(::mkfifo(out.c_str(), 0666), 0);
      break;
    case Into::OwnInput:
      out = input;
      break;
  }
  command = kTopdown + " " + filled(output.command, input.string(), out.string());
  if (into == Into::Fifo) {
    // The reader; opening the FIFO read-write afterwards lets it end even if
    // topdown never opened the FIFO.
    const std::string fifo = out.string();
    command = "cat " + fifo + " >" + (dir / "read").string() + " & reader=$!; " + command + "; status=$?; : 1<>" +
              fifo + "; wait $reader; exit $status";
  }
  const auto r = run_command("{ " + command + "; }");

  switch (into) {
    case Into::Symlink:
      EXPECT_EQ(r.exit_code, 0) << r.err;
      ASSERT_TRUE(fs::is_symlink(out)) << "the link stays a link";
      EXPECT_EQ(fs::read_symlink(out), "target");
      EXPECT_NE(contents(dir / "target"), "old") << "the file it points to holds the output";
      EXPECT_FALSE(contents(dir / "target").empty());
      break;
    case Into::NullDevice:
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_TRUE(is_device(out, 1, 3)) << "still the character device 1,3";
      break;
    case Into::Fifo:
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_TRUE(fs::is_fifo(out));
      EXPECT_FALSE(contents(dir / "read").empty()) << "the reader got the output";
      break;
    case Into::FullDevice:
      EXPECT_EQ(r.exit_code, 125);
      EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
      // --html alone prints the text report on stderr before the error line.
      EXPECT_EQ(last_line(r.err).rfind("topdown: ", 0), 0u) << r.err;
      EXPECT_TRUE(is_device(out, 1, 7)) << "still the character device 1,7";
      break;
    case Into::OwnInput:
      EXPECT_EQ(r.exit_code, 125);
      EXPECT_NE(r.err.find("writing it would destroy it; choose another output file\n"), std::string::npos) << r.err;
      EXPECT_EQ(contents(input), original) << "the input is intact";
      break;
  }
  EXPECT_EQ(hidden_files(dir), std::vector<std::string>{}) << "no temporary file is left";
}

const std::vector<Output> kOutputs = {
    {"stat_o", "stat --model {IN} -o {OUT} -- true", kData + "software.model"},
    {"stat_csv", "stat --model {IN} --csv -o {OUT} -- true", kData + "software.model"},
    {"stat_json", "stat --model {IN} --json -o {OUT} -- true", kData + "software.model"},
    {"stat_html", "stat --model {IN} --html {OUT} -- true", kData + "software.model"},
    {"import_o", "import --cpu zen5 {IN} -o {OUT}", kPerfFile},
    {"import_html", "import --cpu zen5 {IN} --html {OUT}", kPerfFile},
    {"compare_o", "compare --cpu zen5 {IN} " + kOtherPerfFile + " -o {OUT}", kPerfFile},
    {"compare_html", "compare --cpu zen5 {IN} " + kOtherPerfFile + " --html {OUT}", kPerfFile},
    {"report_o", "report {IN} -o {OUT}", "recording"},
    {"report_html", "report {IN} --html {OUT}", "recording"},
    {"report_pprof", "report {IN} --pprof {OUT}", "recording"},
    {"record_o", "record --model {IN} -o {OUT} -- true", kData + "software.model"},
    {"list_stdout", "list --cpu zen5 >{OUT}", ""},
};

std::string case_name(const ::testing::TestParamInfo<OutputFault::ParamType>& info) {
  static const char* const kInto[] = {"Symlink", "NullDevice", "Fifo", "FullDevice", "OwnInput"};
  return std::get<0>(info.param).name + "_" + kInto[static_cast<int>(std::get<1>(info.param))];
}

INSTANTIATE_TEST_SUITE_P(EveryOutput, OutputFault,
                         ::testing::Combine(::testing::ValuesIn(kOutputs),
                                            ::testing::Values(Into::Symlink, Into::NullDevice, Into::Fifo,
                                                              Into::FullDevice, Into::OwnInput)),
                         case_name);

}  // namespace
}  // namespace topdown::testing
