#include "sampling/running_processes.h"

#include <sys/mman.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "common/input_file.h"
#include "recording/data_format.h"

namespace topdown::sampling {
std::vector<recording::Mapping> executable_mappings(pid_t pid, std::string_view maps) {
  std::vector<recording::Mapping> mappings;
  std::istringstream lines{std::string(maps)};
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string range, perms, offset, device, inode;
    fields >> range >> perms >> offset >> device >> inode;
    std::string path;
    std::getline(fields >> std::ws, path);
    const auto dash = range.find('-');
    // Only code can hold a sampled ip; anonymous code (JIT) has no file to name.
    if (dash == std::string::npos || perms.size() < 3 || perms[2] != 'x' || path.empty()) continue;
    recording::Mapping mapping;
    mapping.pid = static_cast<uint32_t>(pid);
    mapping.start = std::strtoull(range.c_str(), nullptr, 16);
    mapping.length = std::strtoull(range.c_str() + dash + 1, nullptr, 16) - mapping.start;
    mapping.file_offset = std::strtoull(offset.c_str(), nullptr, 16);
    mapping.path = path;
    mappings.push_back(std::move(mapping));
  }
  return mappings;
}

std::vector<pid_t> running_processes() {
  std::vector<pid_t> pids;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    const std::string name = entry.path().filename();
    char* end = nullptr;
    const long pid = std::strtol(name.c_str(), &end, 10);
    if (pid > 0 && *end == '\0') pids.push_back(static_cast<pid_t>(pid));
  }
  return pids;
}

std::string process_records(pid_t pid, uint64_t sample_type) {
  const std::string dir = "/proc/" + std::to_string(pid);
  std::string comm = read_whole_file(dir + "/comm").value_or("");
  if (comm.empty()) return {};
  if (comm.back() == '\n') comm.pop_back();
  const auto id = recording::SampleId{static_cast<uint32_t>(pid), static_cast<uint32_t>(pid), 0, 0, 0};
  std::string records = recording::encode_comm(id.pid, id.tid, comm, /*exec=*/false, sample_type, id);
  for (const recording::Mapping& mapping : executable_mappings(pid, read_whole_file(dir + "/maps").value_or(""))) {
    records += recording::encode_mmap2(mapping, id.tid, PROT_READ | PROT_EXEC, sample_type, id);
  }
  return records;
}

}  // namespace topdown::sampling
