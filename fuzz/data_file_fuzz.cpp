// The data file reader on arbitrary bytes. An input that does not start
// with the magic is taken as the records after a fixed, valid file start
// (one group of two events, leader id 10, member 11, call stacks as
// --call-graph dwarf records them: callchain, two user registers and a
// stack copy), so that the fuzzer spends its time on records rather than on
// the magic. Bad files must end in topdown::Error with a one-line message
// naming the file; what is read must hang together: every sample's deltas
// inside Recording::values, its group one of the header's, its frames
// inside the frame pool and its saved stack inside the stack pools.
#include <linux/perf_event.h>

#include <cstdint>
#include <string>

#include "error_message.h"
#include "memory_file.h"
#include "recording/data_file.h"
#include "recording/data_format.h"

namespace {

using namespace topdown;

std::string file_start() {
  recording::FileHeader file;
  file.header.model = "software";
  recording::SampledGroup group;
  group.events = {"task-clock", "page-faults"};
  file.header.groups.push_back(group);
  file.header.call_graph = recording::CallGraph::Dwarf;
  file.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU |
                     PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
  file.sample_regs_user = 0b11;
  file.read_format =
      PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
  file.streams.push_back({0, {10, 11}, true});
  return recording::encode_file_start(file);
}

void check(const recording::Recording& recording) {
  for (const recording::Sample& sample : recording.samples) {
    if (sample.group >= recording.header.groups.size()) __builtin_trap();
    const std::size_t events = recording.header.groups[sample.group].events.size();
    if (sample.first_value + events > recording.values.size()) __builtin_trap();
    if (sample.first_frame + sample.kernel_frames + sample.user_frames > recording.frames.addresses.size()) {
      __builtin_trap();
    }
    if (sample.user_stack != recording::kNoStack) {
      if (sample.user_stack >= recording.user_stacks.size()) __builtin_trap();
      const recording::UserStack& stack = recording.user_stacks[sample.user_stack];
      if (stack.first_register + stack.registers > recording.stack_registers.size()) __builtin_trap();
      if (stack.first_byte + stack.bytes > recording.stack_bytes.bytes().size()) __builtin_trap();
    }
  }
  if (recording.frames.symbols.size() != recording.frames.addresses.size()) __builtin_trap();
  if (recording.truncated && recording.warnings.empty()) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string start = file_start();
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::string bytes = input.starts_with(recording::kMagic) ? input : start + input;
  const fuzz::MemoryFile file(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  try {
    check(recording::read_data_file(file.path()));
  } catch (const Error& error) {
    fuzz::check_refusal(error, file.path());
  }
  return 0;
}
