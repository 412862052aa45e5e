#include "recording/data_format.h"

#include <linux/perf_event.h>

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>
#include <utility>

#include "common/error.h"

namespace topdown::recording {
namespace {

using nlohmann::json;

template <typename T>
void append(std::string& bytes, const T& value) {
  bytes.append(reinterpret_cast<const char*>(&value), sizeof value);
}

// Pads to 8 bytes with NULs (strings in records are NUL-terminated) and sets
// the header's size.
std::string finish_record(std::string record) {
  record.resize((record.size() + 7) / 8 * 8, '\0');
  const auto size = static_cast<uint16_t>(record.size());
  std::memcpy(record.data() + offsetof(perf_event_header, size), &size, sizeof size);
  return record;
}

std::string record_start(uint32_t type, uint16_t misc) {
  std::string record;
  append(record, perf_event_header{type, misc, 0});
  return record;
}

json group_json(const SampledGroup& group) {
  json object = {{"events", group.events},
                 {"copies", {{"number", group.copies.number}, {"events", group.copies.events}}},
                 {"period", group.period},
                 {"frequency", group.frequency}};
  if (!group.pmu.empty()) object["pmu"] = group.pmu;
  return object;
}

// nlohmann converts a float or an out-of-range integer to T with a plain
// cast: undefined for floats, silently wrapped for integers. A header is
// untrusted input, so anything but an integer that fits T is corrupt.
template <typename T>
T integer(const json& value) {
  if (value.is_number_unsigned()) {
    const auto number = value.get<uint64_t>();
    if (std::in_range<T>(number)) return static_cast<T>(number);
  } else if (value.is_number_integer()) {
    const auto number = value.get<int64_t>();
    if (std::in_range<T>(number)) return static_cast<T>(number);
  }
  throw json::type_error::create(302, "expected an integer that fits its field", &value);
}

template <typename T>
std::vector<T> integers(const json& value) {
  if (!value.is_array()) throw json::type_error::create(302, "expected an array of integers", &value);
  std::vector<T> numbers;
  numbers.reserve(value.size());
  for (const json& number : value) numbers.push_back(integer<T>(number));
  return numbers;
}

SampledGroup group_from(const json& value) {
  SampledGroup group;
  group.events = value.at("events").get<std::vector<std::string>>();
  if (group.events.empty()) throw json::other_error::create(501, "a group without events", &value);
  group.copies.number = integer<int>(value.at("copies").at("number"));
  for (const auto& event : value.at("copies").at("events")) group.copies.events.insert(event.get<std::string>());
  group.period = integer<uint64_t>(value.at("period"));
  group.frequency = integer<uint64_t>(value.at("frequency"));
  if (value.contains("pmu")) group.pmu = value.at("pmu").get<std::string>();
  return group;
}

constexpr std::pair<CallGraph, const char*> kCallGraphNames[] = {{CallGraph::None, "none"},
                                                                 {CallGraph::FramePointers, "fp"},
                                                                 {CallGraph::Dwarf, "dwarf"},
                                                                 {CallGraph::PerfScript, "perf_script"}};

const char* call_graph_name(CallGraph call_graph) {
  for (const auto& [value, name] : kCallGraphNames) {
    if (value == call_graph) return name;
  }
  return "none";
}

CallGraph call_graph_named(const json& value) {
  for (const auto& [call_graph, name] : kCallGraphNames) {
    if (value.get<std::string>() == name) return call_graph;
  }
  throw json::other_error::create(501, "an unknown call_graph", &value);
}

// Every group's pmu must be one of the core types', and every group must
// have one: a group no model names cannot be evaluated.
std::vector<CoreType> core_types_from(const json& value, const Header& header) {
  std::vector<CoreType> types;
  for (const json& type : value) {
    types.push_back({type.at("core_type").get<std::string>(), type.at("pmu").get<std::string>(),
                     type.at("model").get<std::string>()});
  }
  for (const SampledGroup& group : header.groups) {
    const bool known =
        std::any_of(types.begin(), types.end(), [&](const CoreType& type) { return type.pmu == group.pmu; });
    if (!known) throw json::other_error::create(501, "a group of no core type's PMU", &value);
  }
  return types;
}

}  // namespace

std::string encode_file_start(const FileHeader& file) {
  const Header& header = file.header;
  json groups = json::array();
  for (const SampledGroup& group : header.groups) groups.push_back(group_json(group));
  json streams = json::array();
  for (const Stream& stream : file.streams) {
    streams.push_back({{"group", stream.group}, {"ids", stream.ids}, {"per_thread", stream.per_thread}});
  }
  json document = {{"model", header.model},
                   {"cpu", header.cpu},
                   {"level", header.level},
                   {"command", header.command},
                   {"smt_enabled", header.smt_enabled},
                   {"cpus_online", header.cpus_online},
                   {"groups", groups},
                   {"sample_type", file.sample_type},
                   {"read_format", file.read_format},
                   {"call_graph", call_graph_name(header.call_graph)},
                   {"max_stack", header.max_stack},
                   {"sample_regs_user", file.sample_regs_user},
                   {"streams", streams}};
  json core_types = json::array();
  for (const CoreType& type : header.core_types) {
    core_types.push_back({{"core_type", type.core_type}, {"pmu", type.pmu}, {"model", type.model}});
  }
  if (!header.core_types.empty()) document["core_types"] = core_types;
  std::string text = document.dump();
  text.resize((text.size() + 7) / 8 * 8, ' ');
  std::string bytes(kMagic);
  append(bytes, header.core_types.empty() ? kSingleCoreTypeVersion : kFormatVersion);
  append(bytes, uint32_t{0});
  append(bytes, static_cast<uint64_t>(text.size()));
  return bytes + text;
}

FileHeader parse_header_json(std::string_view text, const std::string& file) {
  FileHeader parsed;
  try {
    const json document = json::parse(text);
    Header& header = parsed.header;
    header.model = document.at("model").get<std::string>();
    header.cpu = document.at("cpu").get<std::string>();
    header.level = integer<int>(document.at("level"));
    header.command = document.at("command").get<std::string>();
    header.smt_enabled = document.at("smt_enabled").get<bool>();
    header.cpus_online = integer<int>(document.at("cpus_online"));
    for (const auto& group : document.at("groups")) header.groups.push_back(group_from(group));
    parsed.sample_type = integer<uint64_t>(document.at("sample_type"));
    parsed.read_format = integer<uint64_t>(document.at("read_format"));
    // Version 1 files have neither: no call stacks.
    if (document.contains("call_graph")) header.call_graph = call_graph_named(document.at("call_graph"));
    if (document.contains("max_stack")) header.max_stack = integer<uint32_t>(document.at("max_stack"));
    if (document.contains("sample_regs_user")) {
      parsed.sample_regs_user = integer<uint64_t>(document.at("sample_regs_user"));
    }
    for (const auto& value : document.at("streams")) {
      Stream stream;
      stream.group = integer<uint32_t>(value.at("group"));
      stream.ids = integers<uint64_t>(value.at("ids"));
      stream.per_thread = value.at("per_thread").get<bool>();
      if (stream.group >= header.groups.size() || stream.ids.size() != header.groups[stream.group].events.size()) {
        throw json::other_error::create(501, "a stream that does not match its group", &value);
      }
      parsed.streams.push_back(std::move(stream));
    }
    // Before version 3 there are none: one kind of core.
    if (document.contains("core_types")) header.core_types = core_types_from(document.at("core_types"), header);
  } catch (const json::exception& error) {
    throw Error(file + ": corrupt header (" + error.what() + "); the file is damaged: record again");
  }
  return parsed;
}

std::string encode_run_end(uint64_t lost, const std::vector<GroupTimes>& groups) {
  std::string record = record_start(kRecordRunEnd, 0);
  append(record, lost);
  append(record, static_cast<uint64_t>(groups.size()));
  for (const GroupTimes& times : groups) {
    append(record, times.enabled);
    append(record, times.running);
  }
  return finish_record(std::move(record));
}

std::size_t sample_id_bytes(uint64_t sample_type) {
  std::size_t bytes = 0;
  for (const uint64_t field :
       {uint64_t{PERF_SAMPLE_TID}, uint64_t{PERF_SAMPLE_TIME}, uint64_t{PERF_SAMPLE_ID},
        uint64_t{PERF_SAMPLE_STREAM_ID}, uint64_t{PERF_SAMPLE_CPU}, uint64_t{PERF_SAMPLE_IDENTIFIER}}) {
    if ((sample_type & field) != 0) bytes += 8;
  }
  return bytes;
}

void append_sample_id(std::string& record, uint64_t sample_type, const SampleId& id) {
  if ((sample_type & PERF_SAMPLE_TID) != 0) {
    append(record, id.pid);
    append(record, id.tid);
  }
  if ((sample_type & PERF_SAMPLE_TIME) != 0) append(record, id.time);
  if ((sample_type & PERF_SAMPLE_ID) != 0) append(record, id.id);
  if ((sample_type & PERF_SAMPLE_STREAM_ID) != 0) append(record, id.id);
  if ((sample_type & PERF_SAMPLE_CPU) != 0) {
    append(record, id.cpu);
    append(record, uint32_t{0});
  }
  if ((sample_type & PERF_SAMPLE_IDENTIFIER) != 0) append(record, id.id);
}

namespace {

// A NUL-terminated string padded to 8 bytes, as records carry names.
void append_name(std::string& record, std::string_view name) {
  record.append(name);
  record.resize((record.size() + 8) / 8 * 8, '\0');
}

}  // namespace

std::string encode_comm(uint32_t pid, uint32_t tid, std::string_view comm, bool exec, uint64_t sample_type,
                        const SampleId& id) {
  std::string record = record_start(PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0);
  append(record, pid);
  append(record, tid);
  append_name(record, comm);
  append_sample_id(record, sample_type, id);
  return finish_record(std::move(record));
}

std::string encode_mmap2(const Mapping& mapping, uint32_t tid, uint32_t protection, uint64_t sample_type,
                         const SampleId& id) {
  std::string record = record_start(PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
  append(record, mapping.pid);
  append(record, tid);
  append(record, mapping.start);
  append(record, mapping.length);
  append(record, mapping.file_offset);
  record.append(24, '\0');  // device, inode and generation (or build id): not known here
  append(record, protection);
  append(record, uint32_t{0});  // flags
  append_name(record, mapping.path);
  append_sample_id(record, sample_type, id);
  return finish_record(std::move(record));
}

}  // namespace topdown::recording
