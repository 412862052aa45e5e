// Issue 31, "never a lost file": an output that is an input (or another
// output) is refused before anything runs; -o /dev/stdout writes into
// topdown's stdout; a report stream that cannot be written is exit 125;
// signals neither orphan the workload of stat nor leave hidden temporary
// files of import behind. docs/failures.md lists each.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "run_command.h"
#include "support/temp_tree.h"

namespace topdown::testing {
namespace {

namespace fs = std::filesystem;

const std::string kTopdown = TOPDOWN_BIN;
const std::string kPerfFile = std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/zen5-branchmiss-3runs.csv";
const std::string kImport = kTopdown + " import --cpu zen5 ";
const std::string kSoftwareModel = std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/software.model";
const std::string kStatSoftware = kTopdown + " stat --model " + kSoftwareModel;

std::vector<std::string> hidden_files(const fs::path& dir) {
  std::vector<std::string> hidden;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().filename().string().starts_with('.')) hidden.push_back(entry.path().filename().string());
  }
  return hidden;
}

// A copy of the perf file in `tree`, to be (not) overwritten.
fs::path perf_file_in(const TempTree& tree) { return tree.write("perf.csv", slurp(kPerfFile)); }

TEST(OutputIsInput, AnyNameOfTheInputIsRefusedBeforeAnythingRuns) {
  TempTree tree;
  const fs::path input = perf_file_in(tree);
  fs::create_symlink("perf.csv", tree.root() / "link");
  const std::string dir = tree.root().string();
  for (const std::string& output : {dir + "/perf.csv", dir + "/./perf.csv", dir + "/link"}) {
    for (const std::string option : {"-o", "--html"}) {
      const auto r = run_command(kImport + input.string() + " " + option + " " + output);
      EXPECT_EQ(r.exit_code, 125) << output;
      EXPECT_EQ(r.err, "topdown: " + option + " " + output + " is the import file " + input.string() +
                           ": writing it would destroy it; choose another output file\n");
    }
  }
  EXPECT_EQ(slurp(input.string()), slurp(kPerfFile)) << "the input is intact";
  EXPECT_TRUE(fs::is_symlink(tree.root() / "link"));
}

TEST(OutputIsInput, CompareAndReportRefuseTheirInputs) {
  TempTree tree;
  const std::string a = perf_file_in(tree).string();
  const auto compare = run_command(kTopdown + " compare --cpu zen5 " + a + " " + kPerfFile + " -o " + a);
  EXPECT_EQ(compare.exit_code, 125);
  EXPECT_EQ(compare.err,
            "topdown: -o " + a + " is report A " + a + ": writing it would destroy it; choose another output file\n");
  const auto report = run_command(kTopdown + " report " + a + " --pprof " + a);
  EXPECT_EQ(report.exit_code, 125);
  EXPECT_EQ(report.err, "topdown: --pprof " + a + " is the recording " + a +
                            ": writing it would destroy it; choose another output file\n");
  EXPECT_EQ(slurp(a), slurp(kPerfFile));
}

TEST(OutputIsInput, TwoOutputsOfOneFileAreRefusedEvenBeforeTheFileExists) {
  TempTree tree;
  const std::string input = perf_file_in(tree).string();
  const std::string page = (tree.root() / "page.html").string();
  fs::create_symlink("page.html", tree.root() / "page-link");
  const auto r = run_command(kImport + input + " -o " + page + " --html " + tree.root().string() + "/page-link");
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_EQ(r.err, "topdown: -o " + page + " and --html " + tree.root().string() + "/page-link" +
                       " are one file: one would overwrite the other; give each its own file\n");
  EXPECT_FALSE(fs::exists(page));
  // Reading and writing one device loses nothing: not refused.
  EXPECT_EQ(run_command(kImport + input + " -o /dev/null --html /dev/null").exit_code, 0);
}

TEST(DevStdout, TheReportGoesIntoTopdownsStdoutWhateverItIs) {
  TempTree tree;
  const std::string input = perf_file_in(tree).string();
  const auto plain = run_command(kImport + input);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  ASSERT_FALSE(plain.err.empty());

  const auto to_stdout = run_command(kImport + input + " -o /dev/stdout");
  EXPECT_EQ(to_stdout.exit_code, 0) << to_stdout.err;
  EXPECT_EQ(to_stdout.out, plain.err) << "the same report, on stdout";
  EXPECT_EQ(to_stdout.err, "");

  // Appended after what the file held (the shell's O_APPEND is kept), and
  // through a pipe.
  const std::string appended = (tree.root() / "appended").string();
  const auto append =
      run_command("{ echo first >" + appended + "; " + kImport + input + " -o /dev/stdout >>" + appended + "; }");
  EXPECT_EQ(append.exit_code, 0) << append.err;
  EXPECT_EQ(slurp(appended), "first\n" + plain.err);
  const auto piped = run_command("{ " + kImport + input + " -o /dev/stdout | cat; }");
  EXPECT_EQ(piped.out, plain.err);

  // The link to /proc/self/fd/1: the report reaches stdout's file
  // and the link stays a link.
  const fs::path link = tree.root() / "so";
  fs::create_symlink("/proc/self/fd/1", link);
  const auto through_link = run_command(kImport + input + " -o " + link.string());
  EXPECT_EQ(through_link.exit_code, 0) << through_link.err;
  EXPECT_EQ(through_link.out, plain.err);
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(hidden_files(tree.root()), std::vector<std::string>{});
}

// A full device of our own, never the system's /dev/full.
fs::path full_device_in(const TempTree& tree) {
  const fs::path full = tree.root() / "full";
  EXPECT_EQ(::mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)), 0);
  return full;
}

TEST(ReportStream, AReportThatCannotBeWrittenIsExit125) {
  if (::geteuid() != 0) GTEST_SKIP() << "mknod of the test's full device needs root";
  TempTree tree;
  const std::string input = perf_file_in(tree).string();
  const std::string full = full_device_in(tree).string();
  // stderr full or closed: nowhere to say so, so quietly.
  EXPECT_EQ(run_command("{ " + kImport + input + " 2>" + full + "; }").exit_code, 125);
  EXPECT_EQ(run_command("{ " + kImport + input + " 2>&-; }").exit_code, 125);
  EXPECT_EQ(
      run_command("{ " + kTopdown + " compare --cpu zen5 " + input + " " + kPerfFile + " 2>" + full + "; }").exit_code,
      125);
  // A stdout nothing was written to is no failure.
  const auto unused_stdout = run_command("{ " + kImport + input + " >&-; }");
  EXPECT_EQ(unused_stdout.exit_code, 0) << unused_stdout.err;
  EXPECT_NE(unused_stdout.err.find("Frontend_Bound"), std::string::npos);

  const auto list_full = run_command("{ " + kTopdown + " list --cpu zen5 >" + full + "; }");
  EXPECT_EQ(list_full.exit_code, 125);
  EXPECT_EQ(list_full.err,
            "topdown: cannot write the output to stdout: No space left on device; free some space or redirect it "
            "elsewhere\n");
  const auto list_closed = run_command("{ " + kTopdown + " list --cpu zen5 >&-; }");
  EXPECT_EQ(list_closed.exit_code, 125);
  EXPECT_EQ(list_closed.err, "") << "stdout is gone: quietly";
}

bool process_runs(pid_t pid) {
  const std::string stat = slurp("/proc/" + std::to_string(pid) + "/stat");
  return !stat.empty() && stat.find(") Z ") == std::string::npos;
}

pid_t pid_in(const fs::path& file) {
  const std::string text = slurp(file.string());
  return text.empty() ? 0 : std::stoi(text);
}

// The issue's `stat -I 50 ... 2>&1 | head -1`: the report's reader is gone
// after its first line. Before, SIGPIPE killed topdown and the workload
// kept running; now it is passed on and the workload ends.
TEST(StatSignals, AClosedReportPipeEndsTheWorkloadToo) {
  TempTree tree;
  const fs::path pid_file = tree.root() / "pid";
  const fs::path status = tree.root() / "status";
  // The workload computes for about a minute unless stopped.
  const std::string workload =
      "sh -c 'echo $$ >" + pid_file.string() + "; i=0; while [ $i -lt 50000000 ]; do i=$((i+1)); done'";
  // The outer braces take run_command's `</dev/null`, which would otherwise
  // replace head's pipe.
  const auto r = run_command("{ { " + kStatSoftware + " -I 50 -- " + workload + "; echo $? >" + status.string() +
                             "; } 2>&1 | head -1; }");
  const pid_t workload_pid = pid_in(pid_file);
  ASSERT_GT(workload_pid, 0);
  const bool orphaned = process_runs(workload_pid);
  if (orphaned) ::kill(workload_pid, SIGKILL);
  EXPECT_FALSE(orphaned) << "the workload was left running";
  EXPECT_EQ(slurp(status.string()), "125\n") << "the report could not be written";
  EXPECT_FALSE(r.out.empty());
}

// Starts `words` (no shell: a shell's background job would ignore SIGINT
// and SIGQUIT) with stdin from /dev/null and stderr into `err`.
pid_t spawn(std::vector<std::string> words, const fs::path& err) {
  std::vector<char*> argv;
  for (std::string& word : words) argv.push_back(word.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  EXPECT_EQ(::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

// Waits (at most 30 s, for a busy machine) until `done` says so.
template <typename Condition>
void wait_until(Condition done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!done() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// SIGHUP, SIGQUIT and SIGUSR1 from another process: passed on, then the
// report and the -o file as after SIGTERM.
TEST(StatSignals, HangupQuitAndUser1StillWriteTheReport) {
  for (const auto& [signal, name] : {std::pair{SIGHUP, "SIGHUP"}, {SIGQUIT, "SIGQUIT"}, {SIGUSR1, "SIGUSR1"}}) {
    TempTree tree;
    const fs::path started = tree.root() / "started";
    const fs::path out = tree.root() / "report.txt";
    const pid_t pid = spawn({kTopdown, "stat", "--model", kSoftwareModel, "-o", out.string(), "--", "sh", "-c",
                             "ulimit -c 0; touch \"$0\"; exec sleep 60", started.string()},
                            tree.root() / "err");
    wait_until([&] { return fs::exists(started); });
    ::kill(pid, signal);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status)) << name << " killed topdown";
    EXPECT_EQ(WEXITSTATUS(status), 128 + signal) << name << ": " << slurp((tree.root() / "err").string());
    const std::string report = slurp(out.string());
    EXPECT_NE(report.find(std::string("killed by ") + name), std::string::npos) << name << ": " << report;
  }
}

// import -o's temporary file while import waits for its input (a FIFO no
// one writes yet): a signal that ends topdown removes it.
TEST(ImportSignals, InterruptOrTerminateLeavesNoTemporaryFile) {
  for (const int signal : {SIGINT, SIGTERM}) {
    TempTree tree;
    const fs::path fifo = tree.root() / "input.csv";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string out = (tree.root() / "out.txt").string();
    const pid_t pid = spawn({kTopdown, "import", "--cpu", "zen5", fifo.string(), "-o", out}, tree.root() / "err");
    wait_until([&] { return !hidden_files(tree.root()).empty(); });
    EXPECT_EQ(hidden_files(tree.root()).size(), 1u) << "the temporary file of -o, while import waits";
    ::kill(pid, signal);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == signal) << status;
    EXPECT_EQ(hidden_files(tree.root()), std::vector<std::string>{});
    EXPECT_FALSE(fs::exists(out));
  }
}

// Past the file size limit (ulimit -f), SIGXFSZ killed topdown and left the
// temporary file; now the write fails like any other.
TEST(ImportSignals, TheFileSizeLimitIsAWriteErrorAndLeavesNoTemporaryFile) {
  TempTree tree;
  const std::string input = perf_file_in(tree).string();
  const std::string page = (tree.root() / "page.html").string();
  const auto r = run_command("{ ulimit -f 1; " + kImport + input + " -o /dev/null --html " + page + " 2>&1; }");
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_NE(r.out.find("topdown: cannot write output file " + page + ": File too large; nothing was written\n"),
            std::string::npos)
      << r.out;
  EXPECT_FALSE(fs::exists(page));
  EXPECT_EQ(hidden_files(tree.root()), std::vector<std::string>{});
}

}  // namespace
}  // namespace topdown::testing
