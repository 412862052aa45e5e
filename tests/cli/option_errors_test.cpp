// Every subcommand refuses an unknown or misplaced option before "--" with
// one line naming it, exit 125, before anything runs or is written; what
// follows the command (or "--") belongs to the command.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <ostream>
#include <string>

#include "../collect/test_support.h"
#include "../support/temp_tree.h"
#include "run_command.h"

namespace topdown::testing {
namespace {

const std::string kTopdown = TOPDOWN_BIN;
const std::string kSoftware = std::string(TOPDOWN_SOURCE_DIR) + "/tests/data/software.model";

struct Refusal {
  std::string arguments;  // after "topdown "
  std::string message;    // the whole line, without the newline
};

void PrintTo(const Refusal& refusal, std::ostream* out) { *out << "topdown " << refusal.arguments; }

class RefusedOption : public ::testing::TestWithParam<Refusal> {};

TEST_P(RefusedOption, IsOneLineWithExit125AndNothingRunOrWritten) {
  const TempTree tree;
  const std::string witness = (tree.root() / "ran").string();
  const std::string output = (tree.root() / "out.txt").string();
  std::string line = kTopdown + " " + GetParam().arguments;
  const std::size_t slot = line.find("{out}");
  if (slot != std::string::npos) line.replace(slot, 5, output);
  const CommandResult r = run_command(line + " -- touch " + witness);
  EXPECT_EQ(r.exit_code, 125) << r.err;
  EXPECT_EQ(r.err, GetParam().message + "\n");
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(std::filesystem::exists(witness)) << "the command ran";
  EXPECT_FALSE(std::filesystem::exists(output)) << "an output file was written";
}

const std::string kStatHelp = "; see 'topdown stat --help'";

INSTANTIATE_TEST_SUITE_P(
    EverySubcommand, RefusedOption,
    ::testing::Values(
        Refusal{"stat --model " + kSoftware + " -o {out} --bogus",
                "topdown stat: unknown option '--bogus'" + kStatHelp},
        Refusal{"stat --model " + kSoftware + " -o {out} --levle 2",
                "topdown stat: unknown option '--levle' (did you mean '--level'?)" + kStatHelp},
        Refusal{"stat --model " + kSoftware + " -o {out} --jsn=1",
                "topdown stat: unknown option '--jsn' (did you mean '--json'?)" + kStatHelp},
        Refusal{"record --model " + kSoftware + " -o {out} -l 6 --info --print-perf",
                "topdown record: unknown option '--info'; see 'topdown record --help'"},
        Refusal{"import /dev/null -o {out} --per-cpu",
                "topdown import: unknown option '--per-cpu' (did you mean '--per-core'?); see 'topdown import --help'"},
        Refusal{"report /dev/null -o {out} --min-shar 5",
                "topdown report: unknown option '--min-shar' (did you mean '--min-share'?); see 'topdown report "
                "--help'"},
        Refusal{"compare a.json b.json -o {out} --alfa 0.1",
                "topdown compare: unknown option '--alfa' (did you mean '--alpha'?); see 'topdown compare --help'"},
        Refusal{"serve --model " + kSoftware + " --listn 127.0.0.1:0",
                "topdown serve: unknown option '--listn' (did you mean '--listen'?); see 'topdown serve --help'"},
        Refusal{"info --verbose", "topdown info: unknown option '--verbose'; see 'topdown info --help'"},
        Refusal{"list --cpu zen5 --levels", "topdown list: unknown option '--levels'; see 'topdown list --help'"},
        Refusal{"describe Memory_Bound --cpu zen5 -x",
                "topdown describe: unknown option '-x'; see 'topdown describe --help'"},
        Refusal{"stats", "topdown: unknown command 'stats' (did you mean 'stat'?); see 'topdown --help'"}),
    [](const ::testing::TestParamInfo<Refusal>& param_info) {
      // The subcommand and the place in the list: "stat_1".
      const std::string& arguments = param_info.param.arguments;
      return arguments.substr(0, arguments.find(' ')) + "_" + std::to_string(param_info.index);
    });

TEST(CommandWords, OptionsAfterTheCommandBelongToIt) {
  SKIP_WITHOUT_PERF_EVENTS();
  // No "--": the first word that is not an option starts the command, and its
  // own options follow it untouched.
  const CommandResult r = run_command(kTopdown + " stat --model " + kSoftware + " --json sh -c 'exit 3' --bogus");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(r.err.find("unknown option"), std::string::npos) << r.err;
  const CommandResult dashed = run_command(kTopdown + " stat --model " + kSoftware + " --json -- sh -c 'exit 4' -l");
  EXPECT_EQ(dashed.exit_code, 4) << dashed.err;
}

TEST(CommandWords, SubcommandsThatRunNothingRefuseACommand) {
  const CommandResult r = run_command(kTopdown + " list --cpu zen5 -- true");
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_EQ(r.err, "topdown list runs no command: remove '-- true'; see 'topdown list --help'\n");
  const CommandResult extra = run_command(kTopdown + " describe Memory_Bound Retiring --cpu zen5");
  EXPECT_EQ(extra.exit_code, 125);
  EXPECT_EQ(extra.err, "topdown describe: unexpected argument 'Retiring'; see 'topdown describe --help'\n");
}

TEST(CommandWords, SuggestionsAreForCloseNamesOnly) {
  // Two letters off a short name is a different option, not a typo.
  const CommandResult far = run_command(kTopdown + " list --cpu zen5 --cvu zen4");
  EXPECT_EQ(far.err, "topdown list: unknown option '--cvu' (did you mean '--cpu'?); see 'topdown list --help'\n");
  const CommandResult none = run_command(kTopdown + " import /dev/null --xyzzy");
  EXPECT_EQ(none.err, "topdown import: unknown option '--xyzzy'; see 'topdown import --help'\n");
}

TEST(CommandWords, BadValuesAreOneLineNamingTheSubcommand) {
  const CommandResult r = run_command(kTopdown + " stat --cpu zen5 -l 9 --print-groups");
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_EQ(r.err, "topdown stat: --level: Value 9 not in range 1 to 6" + kStatHelp + "\n");
}

// Values the parser would take but no option can mean, and numbers out of
// range: each a line that says what to give, with no 309-digit bound.
INSTANTIATE_TEST_SUITE_P(
    BadValues, RefusedOption,
    ::testing::Values(
        Refusal{"stat --model " + kSoftware + " -o ''",
                "topdown stat: --output '': give a value, or leave the option out for its default" + kStatHelp},
        Refusal{"stat --model " + kSoftware + " --cpu '' -o {out}",
                "topdown stat: --cpu '': give a value, or leave the option out for its default" + kStatHelp},
        Refusal{"stat --model " + kSoftware + " -o {out} -l=2",
                "topdown stat: -l=2: a short option takes its value after a space (-l 2, or --level=2)" + kStatHelp},
        Refusal{"stat --model " + kSoftware + " -o {out} -p 0",
                "topdown stat: --pid: '0' is not a process id (a whole number above 0)" + kStatHelp},
        Refusal{"stat --model " + kSoftware + " -o {out} -p 7,7.5",
                "topdown stat: --pid: '7.5' is not a process id (a whole number above 0)" + kStatHelp},
        Refusal{"compare a.json b.json -o {out} --min-change -1",
                "topdown compare: --min-change: '-1' is not a change of 0 or more (points for tree nodes, percent "
                "for Info metrics); see 'topdown compare --help'"},
        Refusal{"compare a.json b.json -o {out} --alpha 0",
                "topdown compare: --alpha: '0' is not a significance level above 0 and at most 0.5; see 'topdown "
                "compare --help'"},
        Refusal{"compare a.json b.json -o {out} --alpha nan",
                "topdown compare: --alpha: 'nan' is not a significance level above 0 and at most 0.5; see 'topdown "
                "compare --help'"},
        Refusal{"-l 2 stat --model " + kSoftware + " -o {out}",
                "topdown: '-l' comes before the command: options follow it, as in 'topdown stat -l ...'; see "
                "'topdown stat --help'"}),
    [](const ::testing::TestParamInfo<Refusal>& param_info) { return "case_" + std::to_string(param_info.index); });

TEST(CommandWords, AShortOptionWithAnEqualsSignIsRefusedNotTakenAsAFileName) {
  const TempTree tree;
  const std::string output = (tree.root() / "out.txt").string();
  const CommandResult r = run_command(kTopdown + " import /dev/null -o=" + output);
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_EQ(r.err, "topdown import: -o=" + output + ": a short option takes its value after a space (-o " + output +
                       ", or --output=" + output + "); see 'topdown import --help'\n");
  EXPECT_FALSE(std::filesystem::exists(output));
}

TEST(CommandWords, AMinShareThatIsNoNumberIsRefused) {
  const CommandResult r = run_command(kTopdown + " report /dev/null --min-share nan");
  EXPECT_EQ(r.exit_code, 125);
  EXPECT_EQ(r.err, "topdown: --min-share nan: give a percentage from 0 to 100\n");
}

// A command name is the user's text: a newline in it must not split the
// one-line error, nor an escape sequence reach the terminal.
TEST(CommandWords, ControlBytesOfACommandNameAreEscaped) {
  SKIP_WITHOUT_PERF_EVENTS();
  const CommandResult r =
      run_command(kTopdown + " stat --model " + kSoftware + " -- \"$(printf 'no\\nsuch\\033[2J')\"");
  EXPECT_EQ(r.exit_code, 127) << r.err;
  EXPECT_EQ(r.err,
            "topdown: cannot run 'no\\x0asuch\\x1b[2J': No such file or directory; check the command name and "
            "PATH\n");
}

}  // namespace
}  // namespace topdown::testing
