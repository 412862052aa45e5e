#include <algorithm>
#include <charconv>
#include <fstream>
#include <map>
#include <set>

#include <fmt/format.h>

#include "aggregate/aggregate.h"
#include "common/error.h"
#include "common/strings.h"
#include "cpu/cpu_info.h"

namespace topdown::aggregate {
namespace {

std::vector<std::string_view> split_commas(std::string_view line) {
  std::vector<std::string_view> fields;
  for (size_t start = 0;;) {
    const size_t comma = line.find(',', start);
    fields.push_back(
        trim(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start)));
    if (comma == std::string_view::npos) return fields;
    start = comma + 1;
  }
}

std::optional<int> number(std::string_view text) {
  int value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

// Column positions of CPU, core and socket.
struct Columns {
  size_t cpu = 0;
  size_t core = 1;
  size_t socket = 2;
};

// lscpu's last comment line names the columns: "# CPU,Core,Socket,...".
std::optional<Columns> columns_of_header(std::string_view comment) {
  const auto names = split_commas(trim(comment.substr(1)));
  std::optional<size_t> cpu, core, socket;
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string name = lowercase(names[i]);
    if (name == "cpu") cpu = i;
    if (name == "core") core = i;
    if (name == "socket") socket = i;
  }
  if (!cpu || !core || !socket) return std::nullopt;
  return Columns{*cpu, *core, *socket};
}

}  // namespace

Topology Topology::read_lscpu(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in)
    throw Error("cannot read the topology file " + file.string() + "; give the output of `lscpu -p=CPU,CORE,SOCKET`");
  std::map<int, CpuPlace> cpus;
  Columns columns;
  std::string line;
  for (int line_number = 1; std::getline(in, line); ++line_number) {
    const std::string_view content = trim(line);
    if (content.empty()) continue;
    if (content.front() == '#') {
      if (auto named = columns_of_header(content)) columns = *named;
      continue;
    }
    const auto fields = split_commas(content);
    const size_t needed = std::max({columns.cpu, columns.core, columns.socket}) + 1;
    auto bad_line = [&](const std::string& what) {
      return ParseError(SourceLocation{file.string(), line_number, 0},
                        what + "; expected the output of `lscpu -p=CPU,CORE,SOCKET` (lines like 0,0,0)");
    };
    if (fields.size() < needed)
      throw bad_line(fmt::format("'{}' has {} fields, not {}", content, fields.size(), needed));
    const auto cpu = number(fields[columns.cpu]);
    if (!cpu) throw bad_line(fmt::format("'{}' does not start with a CPU number", content));
    // lscpu leaves the fields of an offline CPU empty.
    if (fields[columns.core].empty() || fields[columns.socket].empty()) continue;
    const auto core = number(fields[columns.core]);
    const auto socket = number(fields[columns.socket]);
    if (!core || !socket) throw bad_line(fmt::format("core or socket of '{}' is not a number", content));
    if (!cpus.emplace(*cpu, CpuPlace{*core, *socket}).second) {
      throw bad_line(fmt::format("CPU {} is listed twice", *cpu));
    }
  }
  if (cpus.empty()) {
    throw Error("the topology file " + file.string() + " lists no CPU; give the output of `lscpu -p=CPU,CORE,SOCKET`");
  }
  return Topology(std::move(cpus));
}

Topology Topology::read_sysfs(const std::filesystem::path& cpu_dir) {
  std::map<int, CpuPlace> cpus;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(cpu_dir, error)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("cpu", 0) != 0) continue;
    const auto cpu = number(std::string_view(name).substr(3));
    if (!cpu) continue;
    // An offline CPU has no topology directory.
    const auto core = cpu::read_first_line(entry.path() / "topology" / "core_id");
    const auto socket = cpu::read_first_line(entry.path() / "topology" / "physical_package_id");
    if (!core || !socket) continue;
    const auto core_id = number(trim(*core));
    const auto socket_id = number(trim(*socket));
    if (core_id && socket_id) cpus.emplace(*cpu, CpuPlace{*core_id, *socket_id});
  }
  if (cpus.empty()) {
    throw Error("no CPU topology under " + cpu_dir.string() +
                "; give the measured machine's `lscpu -p=CPU,CORE,SOCKET` output with --topology FILE");
  }
  return Topology(std::move(cpus));
}

const CpuPlace* Topology::find(int cpu) const {
  const auto it = cpus_.find(cpu);
  return it == cpus_.end() ? nullptr : &it->second;
}

std::vector<int> Topology::cpus_of_core(const CpuPlace& place) const {
  std::vector<int> cpus;
  for (const auto& [cpu, where] : cpus_) {
    if (where.core == place.core && where.socket == place.socket) cpus.push_back(cpu);
  }
  return cpus;
}

int Topology::socket_count() const {
  std::set<int> sockets;
  for (const auto& [cpu, where] : cpus_) sockets.insert(where.socket);
  return static_cast<int>(sockets.size());
}

int Topology::cores_per_socket() const {
  std::map<int, std::set<int>> cores;  // by socket
  for (const auto& [cpu, where] : cpus_) cores[where.socket].insert(where.core);
  return cpu::alike_cores_per_socket(cores);
}

}  // namespace topdown::aggregate
