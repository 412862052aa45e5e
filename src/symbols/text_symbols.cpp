#include "symbols/text_symbols.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "symbols/demangle.h"

namespace topdown::symbols {

namespace {

bool is_function_type(const std::string& type) { return type == "t" || type == "T" || type == "w" || type == "W"; }

bool parse_hex(const std::string& text, uint64_t& value) {
  if (text.empty()) {
    return false;
  }
  size_t used = 0;
  try {
    value = std::stoull(text, &used, 16);
  } catch (const std::exception&) {
    return false;
  }
  return used == text.size();
}

}  // namespace

SortedSymbols read_kallsyms(const std::string& path, std::string& warning) {
  std::ifstream in(path);
  if (!in) {
    warning = "cannot read " + path + " (" + std::strerror(errno) +
              "): kernel samples show as [unknown]; report on the machine that recorded, as root or with "
              "kernel.kptr_restrict=0";
    return {};
  }
  std::vector<NamedRange> ranges;
  bool any_function = false;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string address_text;
    std::string type;
    std::string name;
    uint64_t address = 0;
    if (!(fields >> address_text >> type >> name) || !parse_hex(address_text, address) || !is_function_type(type)) {
      continue;
    }
    any_function = true;
    if (address != 0) {
      ranges.push_back({address, 0, name});
    }
  }
  if (ranges.empty()) {
    warning = any_function ? path +
                                 " shows every kernel address as 0 (kernel.kptr_restrict): kernel samples show as "
                                 "[unknown]; report as root or with sysctl kernel.kptr_restrict=0"
                           : path + " lists no kernel functions: kernel samples show as [unknown]";
    return {};
  }
  return SortedSymbols(std::move(ranges));
}

SortedSymbols read_perf_map(const std::string& path) {
  std::ifstream in(path);
  std::vector<NamedRange> ranges;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string start_text;
    std::string size_text;
    uint64_t start = 0;
    uint64_t size = 0;
    if (!(fields >> start_text >> size_text) || !parse_hex(start_text, start) || !parse_hex(size_text, size) ||
        size == 0 || start + size < start) {
      continue;
    }
    std::string name;
    std::getline(fields >> std::ws, name);
    if (!name.empty() && name.back() == '\r') {
      name.pop_back();
    }
    if (!name.empty()) {
      ranges.push_back({start, start + size, demangle(name.c_str())});
    }
  }
  return SortedSymbols(std::move(ranges));
}

}  // namespace topdown::symbols
