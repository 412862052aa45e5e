#pragma once
// The bytes of topdown's data file (docs/record-format.md): the file start
// (magic, version, header as JSON) and the records topdown writes itself.
// The sampling stage writes them and read_data_file reads them; tests build
// files with them too.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "recording/recording.h"

namespace topdown::recording {

inline constexpr std::string_view kMagic = "TDRECORD";
// 2: call stacks (call_graph, sample_regs_user); 3: a hybrid CPU's core
// types (core_types, each group's pmu), written only for such a recording so
// that older readers refuse it rather than mix the two trees, and other
// recordings stay version 2.
constexpr uint32_t kFormatVersion = 3;
constexpr uint32_t kSingleCoreTypeVersion = 2;
constexpr uint32_t kOldestFormatVersion = 1;
// The file start before the JSON: magic, version, reserved u32, JSON length u64.
constexpr std::size_t kFileStartBytes = 24;

// topdown's own record types, far above the kernel's (below 64 so far) and
// perf's (64-99).
enum OwnRecord : uint32_t {
  // The end of the run: u64 lost records, u64 group count, then per group
  // u64 time_enabled, u64 time_running (Header::groups order).
  kRecordRunEnd = 0x7000,
};

// One group opened on one place (a CPU, or a thread on a CPU): the ids the
// kernel gave its events (PERF_EVENT_IOC_ID), leader first, in the group's
// event order. Samples name their stream by the leader's id.
struct Stream {
  uint32_t group = 0;         // index into Header::groups
  std::vector<uint64_t> ids;  // [0] is the leader
  // The group follows threads (inherit): each thread's values count apart,
  // so deltas are per thread of the stream, not per stream.
  bool per_thread = false;
};

struct FileHeader {
  Header header;
  uint64_t sample_type = 0;       // perf_event_attr.sample_type of every event
  uint64_t read_format = 0;       // perf_event_attr.read_format of every event
  uint64_t sample_regs_user = 0;  // perf_event_attr.sample_regs_user (--call-graph dwarf)
  std::vector<Stream> streams;
};

// Magic, version, the header's JSON length and the JSON, padded with spaces
// to a multiple of 8 bytes so that the records that follow are aligned.
std::string encode_file_start(const FileHeader& file);
// The header from the JSON (`text`) of a file start. Throws Error naming `file` when
// the JSON is not a header.
FileHeader parse_header_json(std::string_view text, const std::string& file);

struct GroupTimes {
  uint64_t enabled = 0;
  uint64_t running = 0;
};
std::string encode_run_end(uint64_t lost, const std::vector<GroupTimes>& groups);

// The fields that end every non-sample record (sample_id_all), as the
// kernel lays them out for `sample_type`.
struct SampleId {
  uint32_t pid = 0;
  uint32_t tid = 0;
  uint64_t time = 0;
  uint32_t cpu = 0;
  uint64_t id = 0;
};
std::size_t sample_id_bytes(uint64_t sample_type);

// The records perf would write for a process that was running before
// recording started: its name (PERF_RECORD_COMM) and a mapping
// (PERF_RECORD_MMAP2, without device, inode or build id).
std::string encode_comm(uint32_t pid, uint32_t tid, std::string_view comm, bool exec, uint64_t sample_type,
                        const SampleId& id);
std::string encode_mmap2(const Mapping& mapping, uint32_t tid, uint32_t protection, uint64_t sample_type,
                         const SampleId& id);

// Appends the sample_id fields of `id` for `sample_type`.
void append_sample_id(std::string& record, uint64_t sample_type, const SampleId& id);

}  // namespace topdown::recording
