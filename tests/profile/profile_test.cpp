#include "profile/profile.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <tuple>

#include "common/error.h"
#include "profile/attribute.h"
#include "profile/name_samples.h"
#include "profile/sample_survey.h"
#include "support/temp_tree.h"

namespace topdown::profile {
namespace {

const std::filesystem::path kSource = TOPDOWN_SOURCE_DIR;

struct Spot {
  Spot(std::string name, uint64_t clock_ns, uint64_t page_faults, int sample_count = 40, std::string source = "",
       int source_line = 0)
      : function(std::move(name)),
        clock(clock_ns),
        faults(page_faults),
        samples(sample_count),
        file(std::move(source)),
        line(source_line) {}
  std::string function;
  uint64_t clock;   // cpu-clock over all its samples
  uint64_t faults;  // page-faults over all its samples
  int samples;
  std::string file;
  int line;
};

recording::SampledGroup group_of(std::vector<std::string> events, counts::GroupCopies copies = {}) {
  recording::SampledGroup group;
  group.events = std::move(events);
  group.copies = std::move(copies);
  return group;
}

// A recording of one group {cpu-clock, page-faults}, each spot's counts
// spread evenly over its samples, the remainder on the last.
recording::Recording recording_of(const std::vector<Spot>& spots) {
  recording::Recording recording;
  recording.header.groups.push_back(group_of({"cpu-clock", "page-faults"}));
  uint64_t time = 1000;
  for (const Spot& spot : spots) {
    recording.symbols.push_back({spot.function, "/usr/bin/app", spot.file, spot.line, {}});
    const auto n = static_cast<uint64_t>(spot.samples);
    for (uint64_t i = 0; i < n; ++i) {
      recording::Sample sample;
      sample.time = time++;
      sample.symbol = static_cast<uint32_t>(recording.symbols.size() - 1);
      sample.first_value = static_cast<uint32_t>(recording.values.size());
      const bool last = i + 1 == n;
      recording.values.push_back(last ? spot.clock - spot.clock / n * (n - 1) : spot.clock / n);
      recording.values.push_back(last ? spot.faults - spot.faults / n * (n - 1) : spot.faults / n);
      recording.samples.push_back(sample);
    }
  }
  return recording;
}

class Profiling : public ::testing::Test {
 protected:
  explicit Profiling(const std::filesystem::path& model_file = kSource / "tests/data/software_sampling.model")
      : model_(model::load_model(model_file)),
        folded_(std::make_shared<model::FoldedModel>(model_, model::RunVariables{})),
        dependencies_(folded_) {}

  Profile profile(const recording::Recording& recording, const Options& options = {}) {
    eval::Options eval_options;
    eval_options.node_groups = node_groups(recording.header, dependencies_, nodes_);
    const eval::Evaluator evaluator(folded_, nodes_, eval_options);
    return analyse(recording, attribute(recording), evaluator, dependencies_, options);
  }

  static const FunctionResult& find(const Profile& profile, const std::string& name) {
    for (const auto& function : profile.functions) {
      if (function.function.name == name) return function;
    }
    throw std::runtime_error("no function " + name);
  }

  model::Model model_;
  std::shared_ptr<const model::FoldedModel> folded_;
  model::Dependencies dependencies_;
  std::vector<std::string> nodes_ = {"Faulting", "Computing", "Faults_Per_Ms"};
};

TEST_F(Profiling, ChargesDeltasToFunctionsWithTheirShareOfTheClock) {
  const Attribution attribution = attribute(recording_of({{"small", 250'000, 10}, {"big", 750'000, 30}}));
  EXPECT_EQ(attribution.clock_event, "cpu-clock");
  ASSERT_EQ(attribution.functions.size(), 2u);
  const Function& big = attribution.functions[0];
  EXPECT_EQ(big.name, "big");
  EXPECT_EQ(big.module, "/usr/bin/app");
  EXPECT_DOUBLE_EQ(big.share, 0.75);
  EXPECT_EQ(big.samples, 40u);
  EXPECT_EQ(big.group_samples, std::vector<uint64_t>{40});
  EXPECT_DOUBLE_EQ(big.counts.find("cpu-clock")->scaled().value(), 750'000);
  EXPECT_DOUBLE_EQ(big.counts.find("page-faults")->scaled().value(), 30);
  EXPECT_DOUBLE_EQ(attribution.functions[1].share, 0.25);
  EXPECT_DOUBLE_EQ(attribution.whole.counts.find("page-faults")->scaled().value(), 40);
  EXPECT_EQ(attribution.whole.samples, 80u);
  EXPECT_DOUBLE_EQ(attribution.whole.counts.duration_s, 79e-9);
}

TEST_F(Profiling, RotatingGroupsAreScaledByTheirTimesAndCopiesKeepTheirKeys) {
  recording::Recording recording = recording_of({{"f", 1'000'000, 100}});
  recording.header.groups[0].time_enabled = 2000;
  recording.header.groups[0].time_running = 1000;
  recording.header.groups[0].copies = {3, {"cpu-clock"}};
  const Attribution attribution = attribute(recording);
  const counts::Count* copy = attribution.functions[0].counts.find("cpu-clock", 3);
  ASSERT_NE(copy, nullptr);
  EXPECT_DOUBLE_EQ(copy->scaled().value(), 2'000'000) << "counted half the time: scaled as stat scales";
  EXPECT_EQ(attribution.functions[0].counts.find("cpu-clock"), nullptr);
  EXPECT_DOUBLE_EQ(attribution.functions[0].counts.find("page-faults")->running_share(), 0.5);
}

TEST_F(Profiling, TheClockIsUnhaltedCyclesBeforeSoftwareClocks) {
  recording::Header header;
  header.groups.push_back(group_of({"page-faults", "cpu-clock"}));
  EXPECT_EQ(clock_event(header), "cpu-clock");
  header.groups.push_back(group_of({"INST_RETIRED.ANY", "CPU_CLK_UNHALTED.THREAD"}));
  EXPECT_EQ(clock_event(header), "CPU_CLK_UNHALTED.THREAD");
  header.groups = {group_of({"page-faults"})};
  EXPECT_EQ(clock_event(header), "page-faults") << "else the first group's leader";
}

TEST_F(Profiling, TheClockOfArmModelsIsCpuCycles) {
  recording::Header header;
  header.groups.push_back(group_of({"STALL_SLOT", "OP_SPEC", "CPU_CYCLES"}));
  EXPECT_EQ(clock_event(header), "CPU_CYCLES") << "not the leader, STALL_SLOT";
}

// Faulting = page-faults * 1000 ns / cpu-clock, over its threshold above 20%.
TEST_F(Profiling, OnlyFunctionsWithEnoughOfTheClockticksAreFlagged) {
  // Every function faults for 40% of its time; "under" takes 4.9%, "over" 5.1%.
  const Profile result = profile(recording_of(
      {{"main", 900'000, 360, 40}, {"under", 49'000, 19'600 / 1000, 49}, {"over", 51'000, 20'400 / 1000, 51}}));
  const FunctionResult& under = find(result, "under");
  const FunctionResult& over = find(result, "over");
  EXPECT_DOUBLE_EQ(under.function.share, 0.049);
  EXPECT_DOUBLE_EQ(over.function.share, 0.051);
  EXPECT_FALSE(under.hot);
  EXPECT_TRUE(over.hot);
  EXPECT_DOUBLE_EQ(under.evaluation.find("Faulting")->value.value(), 19.0 * 1000 / 49'000);
  EXPECT_GT(*under.evaluation.find("Faulting")->value, 0.2);
  EXPECT_FALSE(under.evaluation.find("Faulting")->over_threshold) << "over its threshold, but 4.9% of the clockticks";
  EXPECT_EQ(under.evaluation.bottleneck(), nullptr);
  EXPECT_TRUE(over.evaluation.find("Faulting")->over_threshold);
  ASSERT_NE(over.evaluation.bottleneck(), nullptr) << "the largest level-1 node, as stat marks it";
  EXPECT_EQ(over.evaluation.bottleneck()->node->name, "Computing");

  Options strict;
  strict.min_share = 0.06;
  EXPECT_TRUE(find(profile(recording_of({{"main", 900'000, 360}, {"over", 51'000, 20}})), "over").hot);
  EXPECT_FALSE(find(profile(recording_of({{"main", 900'000, 360}, {"over", 51'000, 20}}), strict), "over").hot);
}

TEST_F(Profiling, ValuesOnFewSamplesAreUnreliableWithTheirCount) {
  const Profile result = profile(recording_of({{"main", 800'000, 80, 100}, {"rare", 200'000, 20, 29}}));
  const FunctionResult& rare = find(result, "rare");
  EXPECT_TRUE(rare.evaluation.find("Faulting")->unreliable);
  EXPECT_EQ(rare.node_samples.at("Faulting"), 29u);
  EXPECT_TRUE(rare.evaluation.find("Faults_Per_Ms")->unreliable);
  const FunctionResult& main = find(result, "main");
  EXPECT_FALSE(main.evaluation.find("Faulting")->unreliable);
  EXPECT_EQ(main.node_samples.at("Faulting"), 100u);
  EXPECT_FALSE(result.whole.evaluation.find("Faulting")->unreliable);
  EXPECT_EQ(result.whole.node_samples.at("Computing"), 129u);
}

TEST_F(Profiling, SortByANodesSlotsOrdersByValueTimesClockticks) {
  // Faulting's share of each function's time: a 0.4 * 100k, b 0.1 * 600k, c 0.8 * 300k.
  const auto recording = recording_of({{"a", 100'000, 40}, {"b", 600'000, 60}, {"c", 300'000, 240}});
  const Profile by_share = profile(recording);
  EXPECT_EQ(by_share.functions[0].function.name, "b");
  EXPECT_EQ(by_share.functions[1].function.name, "c");
  EXPECT_EQ(by_share.functions[2].function.name, "a");
  Options sorted;
  sorted.sort_node = "Faulting";
  const Profile by_faulting = profile(recording, sorted);
  EXPECT_EQ(by_faulting.functions[0].function.name, "c");
  EXPECT_EQ(by_faulting.functions[1].function.name, "b");
  EXPECT_EQ(by_faulting.functions[2].function.name, "a");
  sorted.sort_node = "Frontend_Bound";
  EXPECT_THROW(profile(recording, sorted), Error);
}

TEST_F(Profiling, LocateRanksSourceLinesByTheBottlenecksOwnEvents) {
  const Profile result = profile(recording_of({{"fault", 300'000, 900, 40, "fault.c", 12},
                                               {"fault", 100'000, 100, 40, "fault.c", 30},
                                               {"compute", 600'000, 0, 40, "compute.c", 7}}));
  ASSERT_EQ(result.whole.evaluation.bottleneck()->node->name, "Faulting");
  ASSERT_TRUE(result.locate.has_value());
  EXPECT_EQ(result.locate->node, "Faulting");
  EXPECT_FALSE(result.locate->sample_events);
  EXPECT_EQ(result.locate->events, std::vector<std::string>{"page-faults"}) << "the clock is left out";
  ASSERT_EQ(result.locate->rows.size(), 2u) << "compute takes no page fault";
  EXPECT_EQ(result.locate->rows[0].symbol, 0u);
  EXPECT_DOUBLE_EQ(result.locate->rows[0].weight, 900);
  EXPECT_DOUBLE_EQ(result.locate->rows[0].share, 0.9);
  EXPECT_EQ(result.locate->rows[0].samples, 40u);
  EXPECT_EQ(result.locate->rows[1].symbol, 1u);
  EXPECT_EQ(find(result, "fault").function.samples, 80u) << "two source lines, one function";
}

// Computing is 1 - Faulting: page faults say where it is not. Weighed by
// them, "fault" would rank first, though "compute" owns the node.
TEST_F(Profiling, AComplementWithoutSampleEventsIsNotLocatedAndSaysWhy) {
  const Profile result = profile(recording_of({{"fault", 300'000, 100}, {"compute", 700'000, 1}}));
  ASSERT_EQ(result.whole.evaluation.bottleneck()->node->name, "Computing");
  ASSERT_TRUE(result.locate.has_value());
  EXPECT_EQ(result.locate->node, "Computing");
  EXPECT_TRUE(result.locate->events.empty());
  EXPECT_TRUE(result.locate->rows.empty());
  EXPECT_EQ(result.locate->not_located,
            "it is 1 minus other nodes, so their events say where it is not, and no sample event of its own was "
            "recorded");
}

class ProfilingWithSampleEvents : public Profiling {
 protected:
  ProfilingWithSampleEvents() : Profiling(model_file()) {}
  static std::filesystem::path model_file() {
    static const testing::TempTree tree;
    std::ifstream in(kSource / "tests/data/software_sampling.model");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    text.replace(text.find("advice = Touch"), 0, "sample = context-switches\n");
    return tree.write("sampled.model", text);
  }
};

TEST_F(ProfilingWithSampleEvents, LocateUsesTheModelsSampleEventsWhenRecorded) {
  recording::Recording recording = recording_of({{"fault", 300'000, 900, 40}, {"switch", 100'000, 10, 40}});
  recording.header.groups.push_back(group_of({"context-switches"}));
  recording::Sample sample;
  sample.group = 1;
  sample.symbol = 1;
  sample.first_value = static_cast<uint32_t>(recording.values.size());
  recording.values.push_back(7);
  recording.samples.push_back(sample);
  const Profile result = profile(recording);
  ASSERT_TRUE(result.locate.has_value());
  EXPECT_TRUE(result.locate->sample_events);
  EXPECT_EQ(result.locate->events, std::vector<std::string>{"context-switches"});
  ASSERT_EQ(result.locate->rows.size(), 1u);
  EXPECT_EQ(recording.symbols[result.locate->rows[0].symbol].function, "switch");
  EXPECT_DOUBLE_EQ(result.locate->rows[0].weight, 7);
}

TEST(NodeGroups, ANodeIsComputedFromTheGroupThatCopiesItsEvents) {
  const model::Model model = model::load_model(kSource / "tests/data/software_sampling.model");
  const model::Dependencies dependencies(model, model::RunVariables{});
  recording::Header header;
  header.groups.push_back(group_of({"context-switches", "page-faults"}));
  header.groups.push_back(group_of({"cpu-clock", "page-faults"}, {2, {"page-faults"}}));
  const auto groups = node_groups(header, dependencies, {"Faulting", "Switches_Per_Ms", "Minor_Fault_Share"});
  EXPECT_EQ(groups, (std::map<std::string, int, std::less<>>{{"Faulting", 2}}));
}

// Stands in for symbols::Symbolizer: an address is known once its
// process maps it, and forgotten at exec.
struct FakeResolver {
  struct Location {
    std::string function, inlined, module, file;
    int line = 0;
    std::vector<std::string> inline_chain;
  };
  std::map<uint32_t, std::string> mapped;  // pid -> path
  std::vector<std::string> calls;
  Location answer;
  void map(uint32_t pid, uint64_t, uint64_t, uint64_t, const std::string& path, const std::string&) {
    mapped[pid] = path;
    calls.push_back("map " + path);
  }
  void exec(uint32_t pid) {
    mapped.erase(pid);
    calls.push_back("exec");
  }
  void fork(uint32_t child, uint32_t parent) {
    if (mapped.count(parent)) mapped[child] = mapped[parent];
    calls.push_back("fork");
  }
  void exit(uint32_t pid) { calls.push_back("exit " + std::to_string(pid)); }
  const std::string* file_at(uint32_t pid, uint64_t) const {
    auto found = mapped.find(pid);
    return found == mapped.end() ? nullptr : &found->second;
  }
  const Location& resolve(uint32_t pid, uint64_t ip, bool) {
    calls.push_back("resolve " + std::to_string(ip));
    auto found = mapped.find(pid);
    answer = found == mapped.end() ? Location{"[unknown]", "", "[unknown]", "", 0, {}}
                                   : Location{ip == 1 ? "one" : "other", "", found->second, "x.c", 3, {}};
    if (ip >= 0x100) answer.function = "f" + std::to_string(ip);
    return answer;
  }
  // Each frame is the one below plus 0x10, as many as the registers say.
  void unwind(uint32_t, uint32_t tid, const symbols::UserState& state, std::size_t max_frames,
              std::vector<uint64_t>& frames) {
    calls.push_back("unwind " + std::to_string(tid) + " of " + std::to_string(state.stack.size()) + " bytes");
    for (std::size_t i = 0; i < std::min<std::size_t>(state.registers[0], max_frames); ++i) {
      frames.push_back(state.registers[1] + 0x10 * i);
    }
  }
};

TEST(NameSamples, NamesEveryFrameByItsCallAndUnwindsCopiedStacks) {
  recording::Recording recording;
  recording.header.groups.push_back(group_of({"cpu-clock"}));
  recording.header.max_stack = 2;
  recording.mappings.push_back({1, 5, 0x100, 0x1000, 0, "/bin/a", "", true});
  recording::Sample walked;  // frame pointers: the leaf, then return addresses
  walked.time = 2;
  walked.pid = 5;
  walked.ip = 0x200;
  walked.user_frames = 2;
  recording.frames.addresses = {0x200, 0x301};
  recording.frames.symbols = {recording::kNoSymbol, recording::kNoSymbol};
  recording.values.push_back(1);
  recording.samples.push_back(walked);
  recording::Sample copied = walked;  // dwarf: a kernel frame, then the unwound stack
  copied.time = 3;
  copied.tid = 7;
  copied.ip = 0xffff0000;
  copied.kernel = true;
  copied.first_frame = 2;
  copied.kernel_frames = 1;
  copied.user_frames = 0;
  copied.user_stack = 0;
  recording.frames.addresses.push_back(0xffff0000);
  recording.frames.symbols.push_back(recording::kNoSymbol);
  recording.user_stacks.push_back({0, 0, 2, 16});
  recording.stack_registers = {3, 0x500};  // three frames from 0x500: two kept
  recording.stack_bytes = recording::StackBytes(std::vector<std::byte>(16));
  recording.samples.push_back(copied);
  FakeResolver resolver;
  name_samples(recording, resolver);
  const auto name = [&](uint32_t frame) { return recording.symbols[recording.frames.symbols[frame]].function; };
  EXPECT_EQ(name(0), "f512");
  EXPECT_EQ(name(1), "f768") << "a caller is named by its call, the byte before the return address";
  const recording::Sample& unwound = recording.samples[1];
  ASSERT_EQ(unwound.kernel_frames, 1u);
  ASSERT_EQ(unwound.user_frames, 2u) << "at most the recording's --max-stack";
  EXPECT_EQ(recording.frames.addresses[unwound.first_frame], 0xffff0000u);
  EXPECT_EQ(recording.frames.addresses[unwound.first_frame + 1], 0x500u);
  EXPECT_EQ(recording.frames.addresses[unwound.first_frame + 2], 0x510u);
  EXPECT_EQ(name(unwound.first_frame + 2), "f1295");
  EXPECT_EQ(unwound.user_ip, 0x500u) << "the kernel was entered at the first unwound frame";
  EXPECT_EQ(recording.symbols[unwound.symbol].function, "f1280") << "kernel time is charged to it";
  EXPECT_EQ(unwound.user_stack, recording::kNoStack);
  EXPECT_TRUE(recording.stack_bytes.bytes().empty()) << "the copies go once unwound";
  EXPECT_NE(std::find(resolver.calls.begin(), resolver.calls.end(), "unwind 7 of 16 bytes"), resolver.calls.end());
}

TEST(NameSamples, FeedsMappingsAndTasksInTimeOrderAndInternsPlaces) {
  recording::Recording recording;
  recording.header.groups.push_back(group_of({"cpu-clock"}));
  recording.mappings.push_back({10, 5, 0x1000, 0x1000, 0, "/bin/a", "", true});
  recording.mappings.push_back({30, 6, 0x1000, 0x1000, 0, "/bin/b", "", true});
  recording.tasks.push_back({recording::Task::Kind::Fork, 20, 6, 6, 5, ""});
  recording.tasks.push_back({recording::Task::Kind::Exec, 25, 6, 6, 0, "b"});
  for (auto [time, pid, ip] : {std::tuple{15, 5, 1}, {22, 6, 1}, {27, 6, 1}, {35, 6, 2}, {36, 6, 2}}) {
    recording::Sample sample;
    sample.time = static_cast<uint64_t>(time);
    sample.pid = static_cast<uint32_t>(pid);
    sample.ip = static_cast<uint64_t>(ip);
    sample.first_value = static_cast<uint32_t>(recording.values.size());
    recording.values.push_back(1);
    recording.samples.push_back(sample);
  }
  FakeResolver resolver;
  name_samples(recording, resolver);
  EXPECT_EQ(resolver.calls, (std::vector<std::string>{"map /bin/a", "resolve 1", "fork", "resolve 1", "exec",
                                                      "resolve 1", "map /bin/b", "resolve 2", "resolve 2"}));
  ASSERT_EQ(recording.symbols.size(), 3u);
  EXPECT_EQ(recording.symbols[recording.samples[0].symbol].module, "/bin/a");
  EXPECT_EQ(recording.samples[0].symbol, recording.samples[1].symbol) << "the fork inherits the parent's mappings";
  EXPECT_EQ(recording.symbols[recording.samples[2].symbol].function, "[unknown]") << "exec forgot them";
  EXPECT_EQ(recording.symbols[recording.samples[3].symbol].function, "other");
  EXPECT_EQ(recording.symbols[recording.samples[3].symbol].file, "x.c");
  EXPECT_EQ(recording.samples[3].symbol, recording.samples[4].symbol);
}

// The pass before naming: samples by the file they were taken in (kernel
// time by the user function that entered the kernel), and every kernel
// address naming will look up.
TEST(SurveySamples, CountsSamplesByFileAndCollectsKernelAddresses) {
  recording::Recording recording;
  recording.header.groups.push_back(group_of({"cpu-clock"}));
  recording.mappings.push_back({10, 5, 0x1000, 0x1000, 0, "/bin/a", "", true});
  recording.mappings.push_back({30, 6, 0x1000, 0x1000, 0, "/lib/b.so", "", true});
  recording.tasks.push_back({recording::Task::Kind::Exec, 20, 5, 5, 0, "a"});
  auto add = [&](uint64_t time, uint32_t pid, uint64_t ip, bool kernel, uint64_t user_ip) {
    recording::Sample sample;
    sample.time = time;
    sample.pid = pid;
    sample.ip = ip;
    sample.kernel = kernel;
    sample.user_ip = user_ip;
    sample.first_frame = static_cast<uint32_t>(recording.frames.addresses.size());
    if (kernel) {
      sample.kernel_frames = 2;
      recording.frames.addresses.insert(recording.frames.addresses.end(), {ip, 0xffff2000});
      recording.frames.symbols.insert(recording.frames.symbols.end(), 2, recording::kNoSymbol);
    }
    recording.samples.push_back(sample);
  };
  add(15, 5, 0x1100, false, 0);          // /bin/a
  add(16, 5, 0xffff1000, true, 0x1200);  // kernel time charged to /bin/a
  add(21, 5, 0x1100, false, 0);          // after exec: no file
  add(31, 6, 0x1100, false, 0);          // /lib/b.so
  add(32, 6, 0xffff3000, true, 0);       // a kernel thread's own time
  FakeResolver resolver;
  const SampleSurvey survey = survey_samples(recording, resolver);
  EXPECT_EQ(survey.samples, 5u);
  EXPECT_EQ(survey.by_file, (std::unordered_map<std::string, uint64_t>{{"/bin/a", 2}, {"/lib/b.so", 1}}));
  EXPECT_EQ(survey.kernel_addresses,
            (std::vector<uint64_t>{0xffff0fff, 0xffff1000, 0xffff1fff, 0xffff2000, 0xffff2fff, 0xffff3000}));
  EXPECT_EQ(survey.files_holding(0.4), (std::unordered_set<std::string>{"/bin/a"}));
  EXPECT_EQ(survey.files_holding(0.2), (std::unordered_set<std::string>{"/bin/a", "/lib/b.so"}));
}

}  // namespace
}  // namespace topdown::profile
