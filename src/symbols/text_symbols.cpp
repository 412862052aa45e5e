#include "symbols/text_symbols.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <string_view>

#include "symbols/demangle.h"

namespace topdown::symbols {

namespace {

bool is_function_type(std::string_view type) { return type == "t" || type == "T" || type == "w" || type == "W"; }

// Hex digits, with or without 0x (JIT writers differ; perf takes both).
bool parse_hex(std::string_view text, uint64_t& value) {
  if (text.starts_with("0x") || text.starts_with("0X")) text.remove_prefix(2);
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, 16);
  return !text.empty() && error == std::errc() && end == text.data() + text.size();
}

// The next field of `line` separated by blanks, taken off its front.
std::string_view next_field(std::string_view& line) {
  const size_t start = line.find_first_not_of(" \t");
  if (start == std::string_view::npos) {
    line = {};
    return {};
  }
  const size_t end = line.find_first_of(" \t", start);
  const std::string_view field = line.substr(start, end == std::string_view::npos ? line.size() - start : end - start);
  line.remove_prefix(end == std::string_view::npos ? line.size() : end);
  return field;
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
  SortedSymbols symbols;
  bool any_function = false;
  std::string text;
  while (std::getline(in, text)) {
    std::string_view line = text;
    const std::string_view address_text = next_field(line);
    const std::string_view type = next_field(line);
    const std::string_view name = next_field(line);
    uint64_t address = 0;
    if (name.empty() || !parse_hex(address_text, address) || !is_function_type(type)) {
      continue;
    }
    any_function = true;
    if (address != 0) {
      symbols.add(address, 0, name);
    }
  }
  if (symbols.empty()) {
    warning = any_function ? path +
                                 " shows every kernel address as 0 (kernel.kptr_restrict): kernel samples show as "
                                 "[unknown]; report as root or with sysctl kernel.kptr_restrict=0"
                           : path + " lists no kernel functions: kernel samples show as [unknown]";
    return {};
  }
  symbols.sort();
  return symbols;
}

SortedSymbols read_perf_map(const std::string& path) {
  std::ifstream in(path);
  SortedSymbols symbols;
  std::string text;
  while (std::getline(in, text)) {
    std::string_view line = text;
    uint64_t start = 0;
    uint64_t size = 0;
    if (!parse_hex(next_field(line), start) || !parse_hex(next_field(line), size) || size == 0 ||
        start + size < start) {
      continue;
    }
    const size_t name_start = line.find_first_not_of(" \t");
    std::string_view name = name_start == std::string_view::npos ? std::string_view() : line.substr(name_start);
    if (!name.empty() && name.back() == '\r') {
      name.remove_suffix(1);
    }
    if (!name.empty()) {
      symbols.add(start, start + size, demangle(std::string(name).c_str()));
    }
  }
  symbols.sort();
  return symbols;
}

}  // namespace topdown::symbols
