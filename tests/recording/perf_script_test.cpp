#include "recording/perf_script.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "common/error.h"
#include "events/model_resolver.h"
#include "support/temp_tree.h"

namespace topdown::recording {
namespace {

using testing::TempTree;

const std::filesystem::path kSource = TOPDOWN_SOURCE_DIR;

class PerfScript : public ::testing::Test {
 protected:
  PerfScript()
      : model_(model::load_model(kSource / "tests/data/software_sampling.model")),
        resolver_(events::offline_resolver_config(model_)) {}

  Recording read(const std::string& text) {
    return read_perf_script(tree_.write("script.txt", text), model_, resolver_);
  }

  // The deltas of one sample, in its group's order.
  std::vector<uint64_t> deltas(const Recording& recording, size_t sample) const {
    const Sample& s = recording.samples[sample];
    const auto size = recording.header.groups[s.group].events.size();
    return {recording.values.begin() + s.first_value, recording.values.begin() + s.first_value + size};
  }

  std::string error_of(const std::string& text) {
    try {
      read(text);
    } catch (const Error& error) {
      return error.what();
    }
    return "no error";
  }

  TempTree tree_;
  model::Model model_;
  events::Resolver resolver_;
};

// perf script's default layout, as perf 6.1 prints a {cpu-clock,page-faults}:S record.
const char* kDefaultLayout =
    "              sh 30963 11250.862340:     108151   cpu-clock:      7f02cd5ad813 "
    "get_common_indices.constprop.0+0x13 "
    "(/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2)\n"
    "              sh 30963 11250.862340:         10 page-faults:      7f02cd5ad813 "
    "get_common_indices.constprop.0+0x13 "
    "(/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2)\n"
    "              sh 30963 11250.862437:      97946   cpu-clock:      7f02cd5ad69e handle_amd+0x7e "
    "(/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2)\n"
    "              sh 30963 11250.862539:      99799   cpu-clock:  ffffffff816b47e0 do_dentry_open+0x220 "
    "([kernel.kallsyms])\n"
    "              sh 30963 11250.862539:          7 page-faults:  ffffffff816b47e0 do_dentry_open+0x220 "
    "([kernel.kallsyms])\n";

TEST_F(PerfScript, DefaultLayoutGroupsMemberLinesIntoSamples) {
  const Recording recording = read(kDefaultLayout);
  ASSERT_EQ(recording.header.groups.size(), 1u);
  EXPECT_EQ(recording.header.groups[0].events, (std::vector<std::string>{"cpu-clock", "page-faults"}));
  EXPECT_EQ(recording.header.model, "software_sampling");
  ASSERT_EQ(recording.samples.size(), 3u);
  EXPECT_EQ(deltas(recording, 0), (std::vector<uint64_t>{108151, 10}));
  EXPECT_EQ(deltas(recording, 1), (std::vector<uint64_t>{97946, 0})) << "a member perf leaves out counted 0";
  EXPECT_EQ(deltas(recording, 2), (std::vector<uint64_t>{99799, 7}));
  EXPECT_EQ(recording.samples[0].time, 11250862340000ULL);
  EXPECT_EQ(recording.samples[0].tid, 30963u);
  EXPECT_EQ(recording.samples[0].ip, 0x7f02cd5ad813ULL);
  EXPECT_FALSE(recording.samples[0].kernel);
  EXPECT_TRUE(recording.samples[2].kernel);
  const NamedSymbol& first = recording.symbols[recording.samples[0].symbol];
  EXPECT_EQ(first.function, "get_common_indices.constprop.0") << "the default layout's +0x offset is cut";
  EXPECT_EQ(first.module, "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2");
  EXPECT_EQ(first.line, 0);
  EXPECT_EQ(recording.symbols[recording.samples[2].symbol].module, "[kernel.kallsyms]");
  EXPECT_EQ(recording.lost_samples, 0u);
  EXPECT_FALSE(recording.truncated);
}

TEST_F(PerfScript, DocumentedFieldsWithSourceLinesAndCppNames) {
  const Recording recording = read(
      "# group: {cpu-clock,page-faults}\n"
      "             app 100/101 5.000001:       2000 cpu-clock:  401000 std::vector<int, std::allocator<int> "
      ">::push_back(int const&) (/usr/bin/app)\n"
      "  vector.h:1187\n"
      "             app 100/101 5.000001:          3 page-faults:  401000 std::vector<int, std::allocator<int> "
      ">::push_back(int const&) (/usr/bin/app)\n"
      "  vector.h:1187\n"
      "             app 100/102 5.000002:       1000 cpu-clock:  401100 [unknown] ([unknown])\n"
      "  ??:0\n");
  ASSERT_EQ(recording.samples.size(), 2u);
  const NamedSymbol& push = recording.symbols[recording.samples[0].symbol];
  EXPECT_EQ(push.function, "std::vector<int, std::allocator<int> >::push_back(int const&)");
  EXPECT_EQ(push.module, "/usr/bin/app");
  EXPECT_EQ(push.file, "vector.h");
  EXPECT_EQ(push.line, 1187);
  EXPECT_EQ(recording.samples[0].pid, 100u);
  EXPECT_EQ(recording.samples[0].tid, 101u);
  EXPECT_EQ(deltas(recording, 0), (std::vector<uint64_t>{2000, 3}));
  const NamedSymbol& unknown = recording.symbols[recording.samples[1].symbol];
  EXPECT_EQ(unknown.function, "[unknown]");
  EXPECT_EQ(unknown.line, 0) << "??:0 is no source line";
  EXPECT_EQ(deltas(recording, 1), (std::vector<uint64_t>{1000, 0}));
}

TEST_F(PerfScript, HeaderGroupsKeepMembersThatNeverAppearAndTwoGroupsStayApart) {
  const Recording recording = read(
      "# group: {cpu-clock,page-faults,context-switches}\n"
      "# group: {minor-faults,context-switches}\n"
      "app 7 1.000001: 500 cpu-clock: 401000 main (/usr/bin/app)\n"
      "app 7 1.000001: 400 minor-faults: 401000 main (/usr/bin/app)\n"
      "app 7 1.000001: 2 context-switches: 401000 main (/usr/bin/app)\n");
  ASSERT_EQ(recording.header.groups.size(), 2u);
  EXPECT_EQ(recording.header.groups[0].events.size(), 3u);
  ASSERT_EQ(recording.samples.size(), 2u) << "a line of another group's leader starts a new sample";
  EXPECT_EQ(deltas(recording, 0), (std::vector<uint64_t>{500, 0, 0}));
  EXPECT_EQ(recording.samples[1].group, 1u);
  EXPECT_EQ(deltas(recording, 1), (std::vector<uint64_t>{400, 2}));
}

TEST_F(PerfScript, CallchainsAreSkippedAndLostEventsCounted) {
  const Recording recording = read(
      "app 7 1.000001: 500 cpu-clock: 401000 leaf (/usr/bin/app)\n"
      "\t  401000 leaf (/usr/bin/app)\n"
      "\t  402000 main (/usr/bin/app)\n"
      "\n"
      "app 7 1.000002: PERF_RECORD_LOST_SAMPLES lost 12\n"
      "app 7 1.000003: 500 cpu-clock: 402000 main (/usr/bin/app)\n");
  ASSERT_EQ(recording.samples.size(), 2u);
  EXPECT_EQ(recording.symbols[recording.samples[0].symbol].function, "leaf");
  EXPECT_EQ(recording.lost_samples, 12u);
}

TEST_F(PerfScript, CopiesOfRotatingGroupsKeepTheirGroupNumber) {
  const Recording recording = read(
      "app 7 1.000001: 500 page-faults: 401000 main (/usr/bin/app)\n"
      "app 7 1.000001: 300 cpu-clock:group2: 401000 main (/usr/bin/app)\n");
  ASSERT_EQ(recording.header.groups.size(), 1u);
  const SampledGroup& group = recording.header.groups[0];
  EXPECT_EQ(group.events, (std::vector<std::string>{"page-faults", "cpu-clock"}));
  EXPECT_EQ(group.copies.number, 2);
  EXPECT_EQ(group.copies.key_of("cpu-clock"), counts::EventKey("cpu-clock", 2));
  EXPECT_EQ(group.copies.key_of("page-faults"), counts::EventKey("page-faults"));
}

TEST_F(PerfScript, ACutOffLastLineIsReportedNotFatal) {
  const Recording recording = read(
      "app 7 1.000001: 500 cpu-clock: 401000 main (/usr/bin/app)\n"
      "app 7 1.000002: 5");
  EXPECT_EQ(recording.samples.size(), 1u);
  EXPECT_TRUE(recording.truncated);
  ASSERT_EQ(recording.warnings.size(), 1u);
  EXPECT_NE(recording.warnings[0].find(":2: the last line is cut off"), std::string::npos) << recording.warnings[0];
}

TEST_F(PerfScript, MissingFieldsNameTheLineAndTheFieldsToUse) {
  const std::string fields = "perf script -F comm,tid,pid,time,period,event,ip,sym,dso,srcline";
  EXPECT_NE(error_of("app 7 1.000001: cpu-clock: 401000 main (/usr/bin/app)\n").find(":1: no period field"),
            std::string::npos);
  EXPECT_NE(error_of("app 7 1.000001: cpu-clock: 401000 main (/usr/bin/app)\n").find(fields), std::string::npos);
  EXPECT_NE(error_of("app 7 1.000001: 500 cpu-clock: 401000 main (/usr/bin/app)\n"
                     "app 7 1.000002: 500 401000 main (/usr/bin/app)\n")
                .find(":2: no event field"),
            std::string::npos);
  EXPECT_NE(error_of("app 7 1.000001: 500 cpu-clock: main (/usr/bin/app)\n").find(":1: no ip field"),
            std::string::npos);
  EXPECT_NE(error_of("app 7 1.000001: 500 cpu-clock: 401000 (/usr/bin/app)\n").find(":1: no sym field"),
            std::string::npos);
  EXPECT_NE(error_of("app 7 500 cpu-clock: 401000 main (/usr/bin/app)\n").find(":1: no time field"), std::string::npos);
}

TEST_F(PerfScript, UnknownEventsAndEmptyFilesAreErrors) {
  EXPECT_NE(error_of("app 7 1.000001: 500 cpu-clock: 401000 main (/usr/bin/app)\n"
                     "app 7 1.000001: 5 cache-misses: 401000 main (/usr/bin/app)\n")
                .find(":2: event cache-misses is not an event of the software_sampling model"),
            std::string::npos);
  EXPECT_NE(error_of("").find("holds no samples"), std::string::npos);
  EXPECT_NE(error_of("# only a comment\n").find("holds no samples"), std::string::npos);
  EXPECT_NE(error_of("\x7f"
                     "ELF\x02\x01\x01\n")
                .find(":1: no time field"),
            std::string::npos);
}

TEST_F(PerfScript, AFileThatCannotBeOpened) {
  try {
    read_perf_script((tree_.root() / "absent.txt").string(), model_, resolver_);
    FAIL() << "no error";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("cannot read perf script file"), std::string::npos);
  }
}

}  // namespace
}  // namespace topdown::recording
