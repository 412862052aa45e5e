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

TEST_F(PerfScript, CallchainLinesAfterAnIpAreTheStackAndLostEventsCount) {
  const Recording recording = read(
      "app 7 1.000001: 500 cpu-clock: 401000 leaf (/usr/bin/app)\n"
      "\t  401000 leaf (/usr/bin/app)\n"
      "\t  402000 main (/usr/bin/app)\n"
      "\n"
      "app 7 1.000002: PERF_RECORD_LOST_SAMPLES lost 12\n"
      "app 7 1.000003: 500 cpu-clock: 402000 main (/usr/bin/app)\n");
  ASSERT_EQ(recording.samples.size(), 2u);
  EXPECT_EQ(recording.symbols[recording.samples[0].symbol].function, "leaf");
  EXPECT_EQ(recording.samples[0].user_frames, 2u);
  EXPECT_EQ(recording.samples[1].user_frames, 0u);
  EXPECT_EQ(recording.lost_samples, 12u);
}

// perf record -g, then perf script -F comm,tid,pid,time,period,event,ip,sym,dso,srcline
// (as perf 6.1 prints it): the ip and symbol are the callchain's, each frame
// with its srcline, and every member of the group repeats the callchain.
// The callchain of a page fault in leaf, called by outer_a.
const std::string kFaultInLeaf =
    "\tffffffff821e7c63 xas_load ([kernel.kallsyms])\n"
    "  [kernel.kallsyms][ffffffff821e7c63]\n"
    "\tffffffff81000c82 asm_exc_page_fault ([kernel.kallsyms])\n"
    "  [kernel.kallsyms][ffffffff81000c82]\n"
    "\t            114a leaf (/tmp/prog)\n"
    "  prog.c:2\n"
    "\t            1160 outer_a (/tmp/prog)\n"
    "  prog.c:3\n"
    "\t            1197 main (/tmp/prog)\n"
    "  prog.c:5\n"
    "\n";
const std::string kCallchainLayout = "prog 25940/25940 13100.108723:     111436   cpu-clock: \n" + kFaultInLeaf +
                                     "prog 25940/25940 13100.108723:          2 page-faults: \n" + kFaultInLeaf +
                                     "prog 25940/25940 13100.109515:      99759   cpu-clock: \n"
                                     "\t            1146 leaf (/tmp/prog)\n"
                                     "  prog.c:2\n"
                                     "\t            1170 outer_b (/tmp/prog)\n"
                                     "  prog.c:4\n"
                                     "\t           2724a __libc_start_call_main (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"
                                     "  libc-start.c:74\n"
                                     "\n";

TEST_F(PerfScript, CallchainsOfPerfRecordGBecomeEachSamplesNamedStack) {
  const Recording recording = read(kCallchainLayout);
  EXPECT_EQ(recording.header.call_graph, CallGraph::PerfScript);
  ASSERT_EQ(recording.samples.size(), 2u) << "the member's line joins the leader's sample";
  EXPECT_EQ(deltas(recording, 0), (std::vector<uint64_t>{111436, 2}));
  const Sample& in_kernel = recording.samples[0];
  EXPECT_EQ(in_kernel.ip, 0xffffffff821e7c63u);
  EXPECT_TRUE(in_kernel.kernel);
  EXPECT_EQ(recording.symbols[in_kernel.symbol].function, "xas_load");
  ASSERT_EQ(in_kernel.kernel_frames, 2u);
  ASSERT_EQ(in_kernel.user_frames, 3u) << "the member's repeated callchain is not added";
  const auto frame = [&](const Sample& sample, uint32_t i) -> const NamedSymbol& {
    return recording.symbols[recording.frames.symbols[sample.first_frame + i]];
  };
  EXPECT_EQ(frame(in_kernel, 1).function, "asm_exc_page_fault");
  EXPECT_EQ(frame(in_kernel, 1).module, "[kernel.kallsyms]");
  EXPECT_EQ(frame(in_kernel, 3).function, "outer_a");
  EXPECT_EQ(frame(in_kernel, 3).file, "prog.c");
  EXPECT_EQ(frame(in_kernel, 3).line, 3);
  EXPECT_EQ(recording.frames.addresses[in_kernel.first_frame + 3], 0x1160u);

  const Sample& in_user = recording.samples[1];
  EXPECT_FALSE(in_user.kernel);
  EXPECT_EQ(in_user.ip, 0x1146u);
  EXPECT_EQ(recording.symbols[in_user.symbol].function, "leaf");
  EXPECT_EQ(recording.symbols[in_user.symbol].line, 2);
  ASSERT_EQ(in_user.kernel_frames + in_user.user_frames, 3);
  EXPECT_EQ(frame(in_user, 1).function, "outer_b");
  EXPECT_EQ(frame(in_user, 2).module, "/usr/lib/x86_64-linux-gnu/libc.so.6");
}

TEST_F(PerfScript, ASampleLineWithoutIpNeedsItsCallchain) {
  EXPECT_NE(error_of("app 7 1.000001: 500 cpu-clock:\n"
                     "app 7 1.000002: 500 cpu-clock:\n")
                .find(":1: no ip field"),
            std::string::npos);
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

// A line cut inside its dso, or even after it, still parses: the missing
// end of line alone says the file was cut.
TEST_F(PerfScript, ALastLineCutInsideALaterFieldIsReportedToo) {
  for (const std::string cut : {"401000 main (/usr/bi", "401000 main (/usr/bin/app)", "4010"}) {
    SCOPED_TRACE(cut);
    const Recording recording = read(
        "app 7 1.000001: 500 cpu-clock: 401000 main (/usr/bin/app)\n"
        "app 7 1.000002: 500 cpu-clock: " +
        cut);
    EXPECT_EQ(recording.samples.size(), 1u);
    EXPECT_TRUE(recording.truncated);
    ASSERT_EQ(recording.warnings.size(), 1u);
    EXPECT_NE(recording.warnings[0].find(":2: the last line is cut off"), std::string::npos) << recording.warnings[0];
  }
}

TEST_F(PerfScript, MissingFieldsNameTheLineAndTheFieldsToUse) {
  const std::string fields = "perf script -F comm,tid,pid,time,period,event,ip,sym,dso,srcline";
  EXPECT_NE(error_of("app 7 1.000001: cpu-clock: 401000 main (/usr/bin/app)\n").find(":1: no period field"),
            std::string::npos);
  EXPECT_NE(error_of("app 7 1.000001: cpu-clock: 401000 main (/usr/bin/app)\n").find(fields), std::string::npos);
  // A period that is there but no count is said to be so, not missing.
  for (const std::string period : {"-5", "12x", "99999999999999999999"}) {
    const std::string error = error_of("app 7 1.000001: " + period + " cpu-clock: 401000 main (/usr/bin/app)\n");
    EXPECT_TRUE(error.ends_with("script.txt:1: period '" + period +
                                "' is not a whole number of events from 0 to 18446744073709551615: the file was "
                                "edited or damaged; convert the recording again with perf script"))
        << error;
  }
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
