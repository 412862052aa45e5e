#pragma once
// A sampling recording in memory, however it was made: read from topdown's
// own data file (`topdown record`, docs/record-format.md) or from `perf
// script` output of a perf record with the same groups. The input of the
// per-function profile (src/profile).
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "counts/counts.h"
#include "recording/stack_bytes.h"

namespace topdown::recording {

// One counter group as it was sampled: its leader samples, and every sample
// reads the whole group (leader sampling, perf's `{...}:S`).
struct SampledGroup {
  std::vector<std::string> events;  // the model's event names; [0] is the leader
  counts::GroupCopies copies{};     // as schedule::Group::copies: the events counted again here
  uint64_t period = 0;              // -c: leader events between samples (0 when sampling by frequency)
  uint64_t frequency = 0;           // -F: samples per second (0 when sampling by period)
  // Whole-run enabled and running time of the group (ns), summed over the
  // streams it was opened on: how multiplexed it was. Both 0 when the file
  // does not say (perf script); the group is then taken as counted all the time.
  uint64_t time_enabled = 0;
  uint64_t time_running = 0;
  // On a hybrid CPU the core PMU the group sampled on ("cpu_core",
  // "cpu_atom"), whose core type's model names its events; empty on a CPU
  // with one kind of core.
  std::string pmu = {};
};

// One core type of a hybrid CPU's recording: its model and the PMU its
// groups sampled on.
struct CoreType {
  std::string core_type;  // "P-core", as the model names it
  std::string pmu;        // "cpu_core"
  std::string model;      // as Header::model: a name or a --model path
};

// How the samples' callers were recorded (record -g, --call-graph dwarf,
// perf script's callchain lines), and so whether report can show callers.
enum class CallGraph { None, FramePointers, Dwarf, PerfScript };

// What the run was: enough to evaluate it again without the machine.
struct Header {
  std::string model;    // model name (models/<name>.model) or the path given to --model
  std::string cpu;      // the CPU as detected, for the report's heading
  int level = 1;        // -l of the record
  std::string command;  // the command line, or "-p 123", "-a"
  bool smt_enabled = false;
  int cpus_online = 1;
  std::vector<SampledGroup> groups;
  CallGraph call_graph = CallGraph::None;
  uint32_t max_stack = 127;  // --max-stack: frames of a call stack at most (unwinding stops there)
  // A hybrid CPU's recording: each core type's model, P-cores first (model
  // is then the first's); each group's `pmu` says whose it is. Empty on a
  // CPU with one kind of core.
  std::vector<CoreType> core_types = {};
};

constexpr uint32_t kNoSymbol = std::numeric_limits<uint32_t>::max();
constexpr uint32_t kNoStack = std::numeric_limits<uint32_t>::max();

// One sample of one group: where the leader overflowed, and what every event
// of the group counted since the previous sample of the same stream (the
// same group opened on the same CPU or thread).
struct Sample {
  uint64_t time = 0;  // ns, perf's clock
  uint32_t pid = 0;
  uint32_t tid = 0;
  int32_t cpu = -1;
  uint64_t ip = 0;
  bool kernel = false;          // the ip is in the kernel
  uint64_t user_ip = 0;         // in the kernel: the user-mode address where the task entered it (0: unknown)
  uint32_t group = 0;           // index into Header::groups
  uint32_t symbol = kNoSymbol;  // index into Recording::symbols when the file already named the function (perf script)
  uint32_t first_value = 0;     // deltas are values[first_value, first_value + groups[group].events.size())
  // The call stack, innermost frame first (the sample's own place, then each
  // caller's return address): Recording::frames[first_frame, first_frame +
  // kernel_frames + user_frames), the kernel's frames before the user's.
  // Empty without call stacks.
  uint32_t first_frame = 0;
  uint16_t kernel_frames = 0;
  uint16_t user_frames = 0;
  uint32_t user_stack = kNoStack;  // into Recording::user_stacks (--call-graph dwarf), until unwound
};

// A sample's user registers and stack copy, to unwind at report time
// (record --call-graph dwarf): Recording::stack_registers[first_register,
// + registers) in perf_regs order (Header's register mask), and
// Recording::stack_bytes.bytes()[first_byte, + bytes) from the stack
// pointer up.
struct UserStack {
  uint64_t first_register = 0;
  uint64_t first_byte = 0;
  uint32_t registers = 0;
  uint32_t bytes = 0;
};

// The frames of every sample's call stack. Many samples share their frames'
// addresses and so their names: both are kept once here, not per sample.
struct Frames {
  std::vector<uint64_t> addresses;  // as recorded: the leaf's ip, then return addresses
  std::vector<uint32_t> symbols;    // into Recording::symbols, kNoSymbol until named (as addresses)
};

// A file mapped into a process (perf's MMAP2 record, or /proc/PID/maps of a
// process that ran before recording started).
struct Mapping {
  uint64_t time = 0;
  uint32_t pid = 0;
  uint64_t start = 0;
  uint64_t length = 0;
  uint64_t file_offset = 0;
  std::string path;
  std::string build_id;  // hex, empty when not recorded
  bool executable = true;
};

// A process event, in time order with the mappings: exec (comm with exec:
// the old mappings are gone), fork (child inherits the parent's) and exit.
struct Task {
  enum class Kind { Exec, Fork, Exit, Comm };
  Kind kind = Kind::Comm;
  uint64_t time = 0;
  uint32_t pid = 0;
  uint32_t tid = 0;
  uint32_t parent_pid = 0;  // Fork
  std::string comm;         // Exec, Comm
};

// A place in the code a sample was charged to, already named (perf script's
// sym, dso and srcline fields, or the symbolizer's answer for an ip): one
// entry per function, module and source line.
struct NamedSymbol {
  std::string function;                   // as printed (demangled when perf demangled it)
  std::string module;                     // the dso, "[kernel.kallsyms]", "[unknown]"
  std::string file;                       // source file (perf script's srcline), empty when not known
  int line = 0;                           // 0 when not known
  std::vector<std::string> inline_chain;  // the functions inlined at the place, innermost first (in `function`)
};

struct Recording {
  Header header;
  std::vector<Sample> samples;   // in time order (a data file), or file order (perf script)
  std::vector<uint64_t> values;  // every sample's deltas (Sample::first_value)
  std::vector<Mapping> mappings;
  std::vector<Task> tasks;
  std::vector<NamedSymbol> symbols;
  Frames frames;
  std::vector<UserStack> user_stacks;
  std::vector<uint64_t> stack_registers;
  StackBytes stack_bytes;
  uint64_t user_register_mask = 0;  // perf_event_attr.sample_regs_user of the recording
  uint64_t lost_samples = 0;        // records the kernel dropped (PERF_RECORD_LOST / LOST_SAMPLES)
  bool truncated = false;           // the file ends inside a record: read up to the last whole one
  std::vector<std::string> warnings;
};

}  // namespace topdown::recording
