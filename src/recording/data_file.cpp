#include "recording/data_file.h"

#include <linux/perf_event.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <memory>
#include <unordered_map>

#include "common/error.h"
#include "common/mapped_file.h"
#include "recording/data_format.h"

namespace topdown::recording {
namespace {

constexpr uint64_t kReadableSample = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
                                     PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
                                     PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
                                     PERF_SAMPLE_STACK_USER;
constexpr uint64_t kGroupRead = PERF_FORMAT_GROUP | PERF_FORMAT_ID;

// Thrown when a record ends before its fields do: its layout is not what
// its header said.
struct ShortRecord {};

// One record's fields, read in order.
class Fields {
 public:
  Fields(std::string_view record, std::size_t offset) : record_(record), offset_(offset) {}
  uint64_t u64() { return take<uint64_t>(); }
  uint32_t u32() { return take<uint32_t>(); }
  // A NUL-terminated name taking the rest of the record but `tail` bytes.
  std::string name(std::size_t tail) {
    if (at_ + tail > record_.size()) throw ShortRecord{};
    const std::string_view rest = record_.substr(at_, record_.size() - tail - at_);
    at_ = record_.size() - tail;
    return std::string(rest.substr(0, rest.find('\0')));
  }
  void skip(std::size_t bytes) {
    if (at_ + bytes > record_.size()) throw ShortRecord{};
    at_ += bytes;
  }
  // The next `bytes` bytes of the record, in place.
  std::string_view bytes(std::size_t count) {
    if (at_ + count > record_.size()) throw ShortRecord{};
    const std::string_view taken = record_.substr(at_, count);
    at_ += count;
    return taken;
  }
  std::size_t remaining() const { return record_.size() - at_; }
  std::size_t offset() const { return offset_; }

 private:
  template <typename T>
  T take() {
    if (at_ + sizeof(T) > record_.size()) throw ShortRecord{};
    T value;
    std::memcpy(&value, record_.data() + at_, sizeof value);
    at_ += sizeof value;
    return value;
  }

  std::string_view record_;
  std::size_t offset_;
  std::size_t at_ = sizeof(perf_event_header);
};

class Reader {
 public:
  Reader(const std::string& path, FileHeader file, std::shared_ptr<const MappedFile> bytes)
      : path_(path), file_(std::move(file)), bytes_of_file_(std::move(bytes)) {
    recording_.header = file_.header;
    recording_.user_register_mask = file_.sample_regs_user;
    for (uint32_t stream = 0; stream < file_.streams.size(); ++stream) {
      const auto& ids = file_.streams[stream].ids;
      for (uint32_t position = 0; position < ids.size(); ++position) {
        if (!ids_.emplace(ids[position], EventAt{stream, position}).second) {
          throw Error(path_ + ": corrupt header (event id " + std::to_string(ids[position]) +
                      " listed twice); the file is damaged: record again");
        }
      }
    }
  }

  void record(const perf_event_header& header, std::string_view bytes, std::size_t offset) {
    bytes_ = bytes;
    Fields fields(bytes, offset);
    try {
      switch (header.type) {
        case PERF_RECORD_SAMPLE:
          sample(header, fields);
          break;
        case PERF_RECORD_MMAP2:
          mapping(header, fields);
          break;
        case PERF_RECORD_COMM:
          comm(header, fields);
          break;
        case PERF_RECORD_FORK:
        case PERF_RECORD_EXIT:
          task(header, fields);
          break;
        case PERF_RECORD_LOST:
          fields.u64();  // the id of the event that lost them
          lost_in_stream_ += fields.u64();
          break;
        case PERF_RECORD_LOST_SAMPLES:
          lost_in_stream_ += fields.u64();
          break;
        case kRecordRunEnd:
          run_end(fields);
          break;
        default:
          break;  // throttling and the rest say nothing a profile needs
      }
    } catch (const ShortRecord&) {
      throw corrupt(offset, "a record shorter than its fields");
    }
  }

  Recording finish() {
    if (!run_end_seen_) {
      recording_.lost_samples = lost_in_stream_;
      recording_.warnings.push_back(path_ +
                                    " has no end record: the recording was interrupted, so group times are unknown "
                                    "(groups taken as counted all the time) and lost samples are those seen so far");
    }
    const auto by_time = [](const auto& a, const auto& b) { return a.time < b.time; };
    std::stable_sort(recording_.mappings.begin(), recording_.mappings.end(), by_time);
    std::stable_sort(recording_.tasks.begin(), recording_.tasks.end(), by_time);
    // Each CPU's ring is in time order, the file is not (rings are drained
    // in turn); symbolization walks mappings, tasks and samples together by
    // time. Deltas were taken per stream already, so the order is free.
    std::stable_sort(recording_.samples.begin(), recording_.samples.end(), by_time);
    if (!recording_.user_stacks.empty()) recording_.stack_bytes = StackBytes(bytes_of_file_);
    return std::move(recording_);
  }

  Error corrupt(std::size_t offset, const std::string& what) const {
    return Error(path_ + ": corrupt record at byte " + std::to_string(offset) + " (" + what +
                 "); the file is damaged: record again");
  }

 private:
  struct EventAt {
    uint32_t stream;
    uint32_t position;  // in its group
  };

  uint64_t sample_id_time() const {
    if ((file_.sample_type & PERF_SAMPLE_TIME) == 0) return 0;
    // The time is the first field after pid/tid in the sample_id tail.
    const std::size_t tail = sample_id_bytes(file_.sample_type);
    if (bytes_.size() < sizeof(perf_event_header) + tail) throw ShortRecord{};
    const std::size_t at = bytes_.size() - tail + ((file_.sample_type & PERF_SAMPLE_TID) != 0 ? 8 : 0);
    uint64_t time = 0;
    std::memcpy(&time, bytes_.data() + at, sizeof time);
    return time;
  }

  void sample(const perf_event_header& header, Fields& fields) {
    const uint64_t type = file_.sample_type;
    Sample sample;
    uint64_t id = 0;
    if ((type & PERF_SAMPLE_IDENTIFIER) != 0) id = fields.u64();
    if ((type & PERF_SAMPLE_IP) != 0) sample.ip = fields.u64();
    if ((type & PERF_SAMPLE_TID) != 0) {
      sample.pid = fields.u32();
      sample.tid = fields.u32();
    }
    if ((type & PERF_SAMPLE_TIME) != 0) sample.time = fields.u64();
    if ((type & PERF_SAMPLE_ID) != 0) id = fields.u64();
    if ((type & PERF_SAMPLE_STREAM_ID) != 0) fields.u64();
    if ((type & PERF_SAMPLE_CPU) != 0) {
      sample.cpu = static_cast<int32_t>(fields.u32());
      fields.u32();
    }
    if ((type & PERF_SAMPLE_PERIOD) != 0) fields.u64();
    const auto leader = ids_.find(id);
    if (leader == ids_.end() || leader->second.position != 0) {
      throw corrupt(fields.offset(), "a sample of event id " + std::to_string(id) + ", which leads no group");
    }
    const Stream& stream = file_.streams[leader->second.stream];
    const uint16_t mode = header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
    sample.kernel = mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_GUEST_KERNEL;
    sample.group = stream.group;
    sample.first_value = static_cast<uint32_t>(recording_.values.size());

    const uint64_t events = fields.u64();
    if (events != stream.ids.size()) throw corrupt(fields.offset(), "a group read of another number of events");
    if ((file_.read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) != 0) fields.u64();
    if ((file_.read_format & PERF_FORMAT_TOTAL_TIME_RUNNING) != 0) fields.u64();
    std::vector<uint64_t>& previous = previous_[{id, stream.per_thread ? sample.tid : 0}];
    previous.resize(events, 0);
    recording_.values.resize(recording_.values.size() + events, 0);
    for (uint64_t i = 0; i < events; ++i) {
      const uint64_t value = fields.u64();
      const auto event = ids_.find(fields.u64());
      if (event == ids_.end() || event->second.stream != leader->second.stream) {
        throw corrupt(fields.offset(), "a group read of an event of another group");
      }
      const uint32_t position = event->second.position;
      // The kernel gives running totals; a total below the previous one
      // cannot happen in one stream, and counts as nothing new.
      recording_.values[sample.first_value + position] = value >= previous[position] ? value - previous[position] : 0;
      previous[position] = value;
    }
    if ((type & PERF_SAMPLE_CALLCHAIN) != 0) callchain(fields, sample);
    if ((type & PERF_SAMPLE_REGS_USER) != 0) user_registers(fields, sample);
    if ((type & PERF_SAMPLE_STACK_USER) != 0) user_stack(fields, sample);
    recording_.samples.push_back(sample);
  }

  // The callchain's frames (the kernel's, then the user's) when call stacks
  // were recorded, and the first user-mode address: where the task entered
  // the kernel when the sample is in the kernel (0 when none).
  void callchain(Fields& fields, Sample& sample) {
    const uint64_t entries = fields.u64();
    // With --call-graph dwarf the user frames come from unwinding.
    const bool keep_kernel = recording_.header.call_graph != CallGraph::None;
    const bool keep_user = recording_.header.call_graph == CallGraph::FramePointers;
    Frames& frames = recording_.frames;
    sample.first_frame = static_cast<uint32_t>(frames.addresses.size());
    uint64_t context = 0;
    for (uint64_t i = 0; i < entries; ++i) {
      const uint64_t entry = fields.u64();
      if (entry >= PERF_CONTEXT_MAX) {
        context = entry;
        continue;
      }
      const bool kernel = context == PERF_CONTEXT_KERNEL;
      const bool user = context == PERF_CONTEXT_USER;
      if (user && sample.user_ip == 0) sample.user_ip = entry;
      if (!(kernel ? keep_kernel : user && keep_user) || sample.kernel_frames + sample.user_frames == UINT16_MAX) {
        continue;
      }
      frames.addresses.push_back(entry);
      ++(kernel ? sample.kernel_frames : sample.user_frames);
    }
    frames.symbols.resize(frames.addresses.size(), kNoSymbol);
  }

  void user_registers(Fields& fields, Sample& sample) {
    if (fields.u64() == PERF_SAMPLE_REGS_ABI_NONE) return;  // a kernel thread: no user registers
    UserStack stack;
    stack.first_register = recording_.stack_registers.size();
    stack.registers = static_cast<uint32_t>(__builtin_popcountll(file_.sample_regs_user));
    for (uint32_t i = 0; i < stack.registers; ++i) recording_.stack_registers.push_back(fields.u64());
    sample.user_stack = static_cast<uint32_t>(recording_.user_stacks.size());
    recording_.user_stacks.push_back(stack);
  }

  // The stack's copy: `size` bytes, of which the first `dyn_size` are the
  // stack's (the rest is padding when the stack was shallower).
  void user_stack(Fields& fields, Sample& sample) {
    const uint64_t size = fields.u64();
    if (size == 0) return;
    const std::string_view copied = fields.bytes(size);
    const uint64_t used = std::min(fields.u64(), size);
    if (sample.user_stack == kNoStack) return;
    UserStack& stack = recording_.user_stacks[sample.user_stack];
    // Where the copy lies in the file, which the recording keeps.
    stack.first_byte = static_cast<uint64_t>(copied.data() - bytes_of_file_->bytes().data());
    stack.bytes = static_cast<uint32_t>(used);
  }

  void mapping(const perf_event_header& header, Fields& fields) {
    Mapping mapping;
    mapping.pid = fields.u32();
    fields.u32();  // tid
    mapping.start = fields.u64();
    mapping.length = fields.u64();
    mapping.file_offset = fields.u64();
    fields.skip(24);  // device and inode, or the build id
    if ((header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) != 0) {
      const std::string_view id = bytes_.substr(sizeof(perf_event_header) + 32, 24);
      const auto size = std::min<std::size_t>(static_cast<uint8_t>(id[0]), 20);
      static constexpr char kHex[] = "0123456789abcdef";
      for (std::size_t i = 0; i < size; ++i) {
        const auto byte = static_cast<uint8_t>(id[4 + i]);
        mapping.build_id += kHex[byte >> 4];
        mapping.build_id += kHex[byte & 15];
      }
    }
    const uint32_t protection = fields.u32();
    fields.u32();  // flags
    mapping.executable = (protection & PROT_EXEC) != 0;
    mapping.path = fields.name(sample_id_bytes(file_.sample_type));
    mapping.time = sample_id_time();
    recording_.mappings.push_back(std::move(mapping));
  }

  void comm(const perf_event_header& header, Fields& fields) {
    Task task;
    task.kind = (header.misc & PERF_RECORD_MISC_COMM_EXEC) != 0 ? Task::Kind::Exec : Task::Kind::Comm;
    task.pid = fields.u32();
    task.tid = fields.u32();
    task.comm = fields.name(sample_id_bytes(file_.sample_type));
    task.time = sample_id_time();
    recording_.tasks.push_back(std::move(task));
  }

  void task(const perf_event_header& header, Fields& fields) {
    Task task;
    task.kind = header.type == PERF_RECORD_FORK ? Task::Kind::Fork : Task::Kind::Exit;
    task.pid = fields.u32();
    task.parent_pid = fields.u32();
    task.tid = fields.u32();
    fields.u32();  // parent tid
    task.time = fields.u64();
    recording_.tasks.push_back(std::move(task));
  }

  void run_end(Fields& fields) {
    recording_.lost_samples = fields.u64();
    const uint64_t groups = fields.u64();
    if (groups != recording_.header.groups.size()) {
      throw corrupt(fields.offset(), "an end record for another number of groups");
    }
    for (SampledGroup& group : recording_.header.groups) {
      group.time_enabled = fields.u64();
      group.time_running = fields.u64();
    }
    run_end_seen_ = true;
  }

  struct StreamKey {
    uint64_t id;
    uint32_t tid;
    bool operator==(const StreamKey&) const = default;
  };
  struct StreamKeyHash {
    std::size_t operator()(const StreamKey& key) const { return std::hash<uint64_t>()(key.id * 1'000'003 ^ key.tid); }
  };

  std::string path_;
  std::string_view bytes_;  // the record being read
  FileHeader file_;
  std::shared_ptr<const MappedFile> bytes_of_file_;  // the whole file, which holds the stack copies
  Recording recording_;
  std::unordered_map<uint64_t, EventAt> ids_;
  std::unordered_map<StreamKey, std::vector<uint64_t>, StreamKeyHash> previous_;
  uint64_t lost_in_stream_ = 0;
  bool run_end_seen_ = false;
};

uint64_t load_u64(std::string_view bytes, std::size_t at) {
  uint64_t value = 0;
  std::memcpy(&value, bytes.data() + at, sizeof value);
  return value;
}

FileHeader read_file_start(const std::string& path, std::string_view bytes) {
  if (bytes.substr(0, kMagic.size()) != kMagic) {
    throw Error(path + " is not a topdown data file (it does not start with " + std::string(kMagic) +
                "); give a file written by topdown record");
  }
  if (bytes.size() < kFileStartBytes) {
    throw Error(path + " ends inside its file header: the recording stopped before it started; record again");
  }
  uint32_t version = 0;
  std::memcpy(&version, bytes.data() + kMagic.size(), sizeof version);
  if (version < kOldestFormatVersion || version > kFormatVersion) {
    throw Error(path + " is a data file of format version " + std::to_string(version) +
                "; this topdown reads versions " + std::to_string(kOldestFormatVersion) + " to " +
                std::to_string(kFormatVersion) + ": read it with the topdown that wrote it");
  }
  const uint64_t length = load_u64(bytes, 16);
  if (length > bytes.size() - kFileStartBytes) {
    throw Error(path + " ends inside its file header: the recording stopped before it started; record again");
  }
  FileHeader file = parse_header_json(bytes.substr(kFileStartBytes, length), path);
  if ((file.sample_type & ~kReadableSample) != 0 || (file.read_format & kGroupRead) != kGroupRead) {
    throw Error(path + ": corrupt header (a sample layout this topdown does not read); record again");
  }
  return file;
}

}  // namespace

bool is_data_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string start(kMagic.size(), '\0');
  return in.read(start.data(), static_cast<std::streamsize>(start.size())) && start == kMagic;
}

Recording read_data_file(const std::string& path) {
  const auto file_bytes = std::make_shared<const MappedFile>(path);
  const std::string_view all = file_bytes->bytes();
  FileHeader file = read_file_start(path, all);
  std::size_t offset = kFileStartBytes + load_u64(all, 16);
  Reader reader(path, std::move(file), file_bytes);
  std::size_t released = 0;
  bool truncated = false;
  while (offset < all.size()) {
    if (all.size() - offset < sizeof(perf_event_header)) {
      truncated = true;
      break;
    }
    perf_event_header header;
    std::memcpy(&header, all.data() + offset, sizeof header);
    if (header.size < sizeof header || header.size % 8 != 0) {
      throw reader.corrupt(offset, "a record size of " + std::to_string(header.size) + " bytes");
    }
    if (header.size > all.size() - offset) {
      truncated = true;
      break;
    }
    reader.record(header, all.substr(offset, header.size), offset);
    offset += header.size;
    // The pages read need not stay: the stacks in them are read again, from
    // the file, when unwound.
    if (offset - released >= kStackReleaseStep) {
      file_bytes->release_before(offset);
      released = offset;
    }
  }
  Recording recording = reader.finish();
  if (truncated) {
    recording.truncated = true;
    recording.warnings.insert(recording.warnings.begin(),
                              path + " ends inside a record (at byte " + std::to_string(offset) + " of " +
                                  std::to_string(all.size()) +
                                  "): the recording was cut short; read up to its last whole record");
  }
  return recording;
}

}  // namespace topdown::recording
