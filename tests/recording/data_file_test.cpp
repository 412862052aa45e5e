// The data file read back from bytes built here: the kernel's records as
// the rings hold them and topdown's own, cut and damaged in every way a
// killed or broken recording can be.
#include <gtest/gtest.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <fstream>

#include "common/error.h"
#include "recording/data_file.h"
#include "recording/data_format.h"

namespace topdown::recording {
namespace {

constexpr uint64_t kSampleType =
    PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_READ;
constexpr uint64_t kReadFormat =
    PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
constexpr uint64_t kLeader = 10, kMember = 11;

template <typename T>
void append(std::string& bytes, const T& value) {
  bytes.append(reinterpret_cast<const char*>(&value), sizeof value);
}

std::string with_size(std::string record) {
  const auto size = static_cast<uint16_t>(record.size());
  std::memcpy(record.data() + 6, &size, 2);
  return record;
}

FileHeader two_event_header() {
  FileHeader file;
  file.header.model = "software";
  file.header.cpu = "test CPU";
  file.header.level = 2;
  file.header.command = "demo";
  file.header.cpus_online = 2;
  SampledGroup group;
  group.events = {"task-clock", "page-faults"};
  group.frequency = 1000;
  file.header.groups.push_back(group);
  file.sample_type = kSampleType;
  file.read_format = kReadFormat;
  file.streams.push_back({0, {kLeader, kMember}, true});
  return file;
}

// A sample of the group with running totals `clock` and `faults`.
std::string sample(uint32_t tid, uint64_t time, uint64_t ip, uint64_t clock, uint64_t faults,
                   uint16_t misc = PERF_RECORD_MISC_USER, uint64_t id = kLeader) {
  std::string record;
  append(record, perf_event_header{PERF_RECORD_SAMPLE, misc, 0});
  append(record, id);
  append(record, ip);
  append(record, uint32_t{100});
  append(record, tid);
  append(record, time);
  append(record, uint32_t{1});
  append(record, uint32_t{0});
  for (const uint64_t word : {uint64_t{2}, time, time, clock, kLeader, faults, kMember}) append(record, word);
  return with_size(record);
}

SampleId at_time(uint64_t time) { return {100, 100, time, 0, kLeader}; }

std::string fork_or_exit(uint32_t type, uint32_t pid, uint32_t parent, uint64_t time) {
  std::string record;
  append(record, perf_event_header{type, 0, 0});
  for (const uint32_t word : {pid, parent, pid, parent}) append(record, word);
  append(record, time);
  append_sample_id(record, kSampleType, at_time(time));
  return with_size(record);
}

std::string lost(uint64_t count) {
  std::string record;
  append(record, perf_event_header{PERF_RECORD_LOST, 0, 0});
  append(record, kLeader);
  append(record, count);
  append_sample_id(record, kSampleType, at_time(0));
  return with_size(record);
}

Mapping demo_mapping() {
  Mapping mapping;
  mapping.pid = 100;
  mapping.start = 0x400000;
  mapping.length = 0x2000;
  mapping.file_offset = 0x1000;
  mapping.path = "/usr/bin/demo";
  return mapping;
}

// The records after the file start, in the order a ring gives them.
std::vector<std::string> records() {
  return {
      encode_comm(100, 100, "demo", true, kSampleType, at_time(5)),
      encode_mmap2(demo_mapping(), 100, PROT_READ | PROT_EXEC, kSampleType, at_time(6)),
      sample(100, 10, 0x401000, 1000, 3),
      fork_or_exit(PERF_RECORD_FORK, 101, 100, 11),
      sample(101, 12, 0x401100, 400, 1),
      sample(100, 13, 0xffffffff81000000, 1500, 7, PERF_RECORD_MISC_KERNEL),
      lost(2),
      fork_or_exit(PERF_RECORD_EXIT, 101, 100, 14),
      encode_run_end(2, {{5000, 2500}}),
  };
}

std::string whole_file() {
  std::string bytes = encode_file_start(two_event_header());
  for (const std::string& record : records()) bytes += record;
  return bytes;
}

class DataFile : public ::testing::Test {
 protected:
  std::string write(const std::string& bytes) {
    std::ofstream(path_, std::ios::binary) << bytes;
    return path_;
  }
  void TearDown() override { ::unlink(path_.c_str()); }

  std::string path_ = ::testing::TempDir() + "data_file_test." + std::to_string(::getpid()) + ".data";
};

TEST_F(DataFile, RoundTripGivesDeltasPerThreadOfEachStream) {
  const Recording recording = read_data_file(write(whole_file()));
  EXPECT_FALSE(recording.truncated);
  EXPECT_TRUE(recording.warnings.empty());
  EXPECT_EQ(recording.header.model, "software");
  EXPECT_EQ(recording.header.level, 2);
  ASSERT_EQ(recording.header.groups.size(), 1u);
  EXPECT_EQ(recording.header.groups[0].events, (std::vector<std::string>{"task-clock", "page-faults"}));
  EXPECT_EQ(recording.header.groups[0].frequency, 1000u);
  EXPECT_EQ(recording.header.groups[0].time_enabled, 5000u);
  EXPECT_EQ(recording.header.groups[0].time_running, 2500u);

  ASSERT_EQ(recording.samples.size(), 3u);
  const auto deltas = [&](std::size_t i) {
    const Sample& s = recording.samples[i];
    return std::vector<uint64_t>(recording.values.begin() + s.first_value,
                                 recording.values.begin() + s.first_value + 2);
  };
  // Thread 101 counts apart from 100: its first sample is all its own.
  EXPECT_EQ(deltas(0), (std::vector<uint64_t>{1000, 3}));
  EXPECT_EQ(deltas(1), (std::vector<uint64_t>{400, 1}));
  EXPECT_EQ(deltas(2), (std::vector<uint64_t>{500, 4}));
  EXPECT_EQ(recording.samples[1].tid, 101u);
  EXPECT_EQ(recording.samples[0].ip, 0x401000u);
  EXPECT_EQ(recording.samples[0].cpu, 1);
  EXPECT_FALSE(recording.samples[0].kernel);
  EXPECT_TRUE(recording.samples[2].kernel);

  ASSERT_EQ(recording.mappings.size(), 1u);
  EXPECT_EQ(recording.mappings[0].path, "/usr/bin/demo");
  EXPECT_EQ(recording.mappings[0].start, 0x400000u);
  EXPECT_EQ(recording.mappings[0].length, 0x2000u);
  EXPECT_EQ(recording.mappings[0].file_offset, 0x1000u);
  EXPECT_EQ(recording.mappings[0].time, 6u);
  EXPECT_TRUE(recording.mappings[0].executable);

  ASSERT_EQ(recording.tasks.size(), 3u);
  EXPECT_EQ(recording.tasks[0].kind, Task::Kind::Exec);
  EXPECT_EQ(recording.tasks[0].comm, "demo");
  EXPECT_EQ(recording.tasks[0].time, 5u);
  EXPECT_EQ(recording.tasks[1].kind, Task::Kind::Fork);
  EXPECT_EQ(recording.tasks[1].pid, 101u);
  EXPECT_EQ(recording.tasks[1].parent_pid, 100u);
  EXPECT_EQ(recording.tasks[2].kind, Task::Kind::Exit);
  EXPECT_EQ(recording.lost_samples, 2u);
}

TEST_F(DataFile, IsDataFileChecksTheMagic) {
  EXPECT_TRUE(is_data_file(write(whole_file())));
  EXPECT_FALSE(is_data_file(write("task-clock,1000\n")));
  EXPECT_FALSE(is_data_file(path_ + ".missing"));
}

TEST_F(DataFile, EveryCutInTheLastRecordsReadsUpToTheLastWholeOne) {
  const std::string file = whole_file();
  const std::vector<std::string> all = records();
  // Cut inside each of the last four records: samples before the cut stay.
  std::size_t record_start = file.size();
  for (std::size_t last = all.size(); last-- > all.size() - 4;) {
    record_start -= all[last].size();
    for (std::size_t cut = record_start + 1; cut < record_start + all[last].size(); ++cut) {
      SCOPED_TRACE("cut at byte " + std::to_string(cut));
      const Recording recording = read_data_file(write(file.substr(0, cut)));
      EXPECT_TRUE(recording.truncated);
      ASSERT_FALSE(recording.warnings.empty());
      EXPECT_NE(recording.warnings[0].find("ends inside a record"), std::string::npos);
      EXPECT_EQ(recording.samples.size(), last <= 5 ? 2u : 3u);
      EXPECT_EQ(recording.header.groups[0].time_enabled, 0u);  // the end record was cut off
    }
  }
  // Cut between records: nothing truncated, but no end record either.
  const Recording whole_records = read_data_file(write(file.substr(0, file.size() - all.back().size())));
  EXPECT_FALSE(whole_records.truncated);
  EXPECT_EQ(whole_records.lost_samples, 2u);  // from the lost record in the stream
  ASSERT_EQ(whole_records.warnings.size(), 1u);
  EXPECT_NE(whole_records.warnings[0].find("no end record"), std::string::npos);
}

void expect_error(const std::string& path, const std::string& part) {
  try {
    read_data_file(path);
    ADD_FAILURE() << "no error for " << part;
  } catch (const Error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(path), std::string::npos) << message;
    EXPECT_NE(message.find(part), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST_F(DataFile, CorruptFilesGiveOneLineErrors) {
  const std::string start = encode_file_start(two_event_header());
  expect_error(write("PERFILE2 and more"), "is not a topdown data file");
  expect_error(write(start.substr(0, 20)), "ends inside its file header");
  expect_error(write(start.substr(0, 40)), "ends inside its file header");
  std::string version = start;
  version[8] = 9;
  expect_error(write(version), "format version 9");
  std::string json = start;
  json[kFileStartBytes] = '[';
  expect_error(write(json), "corrupt header");

  std::string zero_size = sample(100, 1, 1, 1, 1);
  zero_size[6] = zero_size[7] = 0;
  expect_error(write(start + zero_size), "a record size of 0 bytes");
  std::string odd_size = sample(100, 1, 1, 1, 1);
  odd_size[6] = 12;
  odd_size[7] = 0;
  expect_error(write(start + odd_size), "a record size of 12 bytes");
  expect_error(write(start + sample(100, 1, 1, 1, 1, PERF_RECORD_MISC_USER, 99)), "leads no group");
  expect_error(write(start + sample(100, 1, 1, 1, 1, PERF_RECORD_MISC_USER, kMember)), "leads no group");
  // A sample cut short by a smaller size: its fields run past its end.
  std::string short_sample = sample(100, 1, 1, 1, 1).substr(0, 40);
  expect_error(write(start + with_size(short_sample)), "shorter than its fields");
  expect_error(write(start + encode_run_end(0, {{1, 1}, {2, 2}})), "another number of groups");
  expect_error(path_ + ".missing", "cannot open");
}

// The header's numbers come from an untrusted file: a float, a negative or an
// integer too wide for its field is corrupt, not cast (1e300 into a uint64_t
// is undefined; 2^32 as a group index would wrap to group 0).
TEST(DataFileHeader, NumbersThatDoNotFitTheirFieldsAreCorrupt) {
  const std::string text = encode_file_start(two_event_header()).substr(kFileStartBytes);
  const FileHeader intact = parse_header_json(text, "intact");
  EXPECT_EQ(intact.streams.at(0).ids, (std::vector<uint64_t>{kLeader, kMember}));
  EXPECT_EQ(intact.header.level, 2);
  for (const auto& [field, damaged] : std::vector<std::pair<std::string, std::string>>{
           {"\"ids\":[10,11]", "\"ids\":[10,1e300]"},
           {"\"ids\":[10,11]", "\"ids\":[10,-11]"},
           {"\"group\":0", "\"group\":4294967296"},
           {"\"level\":2", "\"level\":2.5"},
           {"\"sample_type\":" + std::to_string(kSampleType), "\"sample_type\":-1"},
           {"\"frequency\":1000", "\"frequency\":7.7e35"},
           {"\"number\":0", "\"number\":3000000000"}}) {
    std::string changed = text;
    const std::size_t at = changed.find(field);
    ASSERT_NE(at, std::string::npos) << field << " in " << text;
    changed.replace(at, field.size(), damaged);
    try {
      parse_header_json(changed, "damaged.data");
      ADD_FAILURE() << "no error for " << damaged;
    } catch (const Error& error) {
      const std::string message = error.what();
      EXPECT_EQ(message.rfind("damaged.data: corrupt header", 0), 0u) << message;
      EXPECT_NE(message.find("integer"), std::string::npos) << message;
    }
  }
}

}  // namespace
}  // namespace topdown::recording

namespace topdown::recording {
namespace {

// A sample of the call stack recordings: the group read, then a callchain,
// user registers and a stack copy as `sample_type` says.
std::string stack_sample(uint64_t sample_type, uint64_t time, uint64_t ip, uint16_t misc,
                         const std::vector<uint64_t>& callchain, const std::vector<uint64_t>& registers,
                         const std::string& stack, uint64_t stack_size) {
  std::string record = sample(100, time, ip, time * 10, time, misc);
  if ((sample_type & PERF_SAMPLE_CALLCHAIN) != 0) {
    append(record, static_cast<uint64_t>(callchain.size()));
    for (const uint64_t entry : callchain) append(record, entry);
  }
  if ((sample_type & PERF_SAMPLE_REGS_USER) != 0) {
    append(record, uint64_t{registers.empty() ? PERF_SAMPLE_REGS_ABI_NONE : PERF_SAMPLE_REGS_ABI_64});
    for (const uint64_t value : registers) append(record, value);
  }
  if ((sample_type & PERF_SAMPLE_STACK_USER) != 0) {
    append(record, stack_size);
    if (stack_size > 0) {
      std::string copy = stack;
      copy.resize(stack_size, '\0');
      record += copy;
      append(record, static_cast<uint64_t>(stack.size()));
    }
  }
  return with_size(record);
}

FileHeader stack_header(uint64_t sample_type, CallGraph call_graph, uint64_t registers) {
  FileHeader file = two_event_header();
  file.sample_type = sample_type;
  file.header.call_graph = call_graph;
  file.header.max_stack = 64;
  file.sample_regs_user = registers;
  return file;
}

TEST_F(DataFile, FramePointerCallchainsKeepKernelThenUserFrames) {
  const uint64_t type = kSampleType | PERF_SAMPLE_CALLCHAIN;
  std::string bytes = encode_file_start(stack_header(type, CallGraph::FramePointers, 0));
  bytes += stack_sample(type, 1, 0x401010, PERF_RECORD_MISC_USER, {PERF_CONTEXT_USER, 0x401010, 0x401234, 0x401400}, {},
                        "", 0);
  bytes += stack_sample(
      type, 2, 0xffffffff81000010, PERF_RECORD_MISC_KERNEL,
      {PERF_CONTEXT_KERNEL, 0xffffffff81000010, 0xffffffff81000500, PERF_CONTEXT_USER, 0x401020, 0x401300}, {}, "", 0);
  const Recording recording = read_data_file(write(bytes));
  EXPECT_EQ(recording.header.call_graph, CallGraph::FramePointers);
  EXPECT_EQ(recording.header.max_stack, 64u);
  ASSERT_EQ(recording.samples.size(), 2u);
  const Sample& user = recording.samples[0];
  EXPECT_EQ(user.kernel_frames, 0u);
  ASSERT_EQ(user.user_frames, 3u);
  EXPECT_EQ(recording.frames.addresses[user.first_frame + 1], 0x401234u);
  const Sample& kernel = recording.samples[1];
  EXPECT_EQ(kernel.user_ip, 0x401020u) << "where the task entered the kernel";
  ASSERT_EQ(kernel.kernel_frames, 2u);
  ASSERT_EQ(kernel.user_frames, 2u);
  EXPECT_EQ(recording.frames.addresses[kernel.first_frame + 1], 0xffffffff81000500u);
  EXPECT_EQ(recording.frames.addresses[kernel.first_frame + 3], 0x401300u);
  EXPECT_EQ(recording.frames.symbols.size(), recording.frames.addresses.size());
  EXPECT_EQ(recording.frames.symbols[0], kNoSymbol) << "named at report time";
}

TEST_F(DataFile, DwarfSamplesKeepTheirRegistersAndTheStackInUse) {
  const uint64_t type = kSampleType | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
  const uint64_t mask = 0b1011;  // three registers
  std::string bytes = encode_file_start(stack_header(type, CallGraph::Dwarf, mask));
  bytes += stack_sample(type, 1, 0x401010, PERF_RECORD_MISC_USER, {PERF_CONTEXT_USER, 0x401010}, {7, 8, 9},
                        std::string("ABCDEFGHIJKLMNOP"), 32);
  // A kernel thread: no user registers, and the kernel leaves the stack empty.
  bytes += stack_sample(type, 2, 0xffffffff81000010, PERF_RECORD_MISC_KERNEL, {}, {}, "", 0);
  const Recording recording = read_data_file(write(bytes));
  EXPECT_EQ(recording.user_register_mask, mask);
  ASSERT_EQ(recording.samples.size(), 2u);
  ASSERT_EQ(recording.user_stacks.size(), 1u);
  ASSERT_EQ(recording.samples[0].user_stack, 0u);
  EXPECT_EQ(recording.samples[1].user_stack, kNoStack);
  const UserStack& stack = recording.user_stacks[0];
  ASSERT_EQ(stack.registers, 3u);
  EXPECT_EQ(std::vector<uint64_t>(recording.stack_registers.begin(), recording.stack_registers.end()),
            (std::vector<uint64_t>{7, 8, 9}));
  ASSERT_EQ(stack.bytes, 16u) << "the bytes in use (dyn_size), not the padding";
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(recording.stack_bytes.bytes().data()) + stack.first_byte, 16),
            "ABCDEFGHIJKLMNOP");
  EXPECT_EQ(recording.samples[0].user_frames, 0u) << "user frames come from unwinding, not the callchain";
}

TEST_F(DataFile, VersionOneFilesReadWithoutCallStacks) {
  std::string bytes = whole_file();
  bytes[8] = 1;
  // Version 1 headers have no call stack keys: blanked, the JSON keeps its length.
  for (const std::string key : {"\"call_graph\":\"none\",", "\"max_stack\":127,", "\"sample_regs_user\":0,"}) {
    const std::size_t at = bytes.find(key);
    ASSERT_NE(at, std::string::npos) << key;
    bytes.replace(at, key.size(), std::string(key.size(), ' '));
  }
  const Recording recording = read_data_file(write(bytes));
  EXPECT_EQ(recording.header.call_graph, CallGraph::None);
  EXPECT_EQ(recording.samples.size(), 3u);
}

}  // namespace
}  // namespace topdown::recording
