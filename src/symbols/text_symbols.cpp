#include "symbols/text_symbols.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
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

// Of each wanted address, kallsyms' function holding it (the greatest start
// at or below it) and the start of the function after it, whatever order
// the lines come in: one binary search per line and memory per address, not
// per kernel function.
class FunctionsHolding {
 public:
  explicit FunctionsHolding(const std::vector<uint64_t>& addresses)
      : addresses_(addresses), last_up_to_(addresses.size()), first_after_(addresses.size(), kNone) {}

  void offer(uint64_t start, std::string_view name) {
    const size_t at =
        static_cast<size_t>(std::lower_bound(addresses_.begin(), addresses_.end(), start) - addresses_.begin());
    if (at < addresses_.size() && (!last_up_to_[at].found || start >= last_up_to_[at].start)) {
      last_up_to_[at] = {start, std::string(name), true};  // of equal starts the last listed wins
    }
    if (at > 0) first_after_[at - 1] = std::min(first_after_[at - 1], start);
  }

  SortedSymbols table() const {
    SortedSymbols symbols;
    // The function after an address is the least start after it, then or
    // after any later address.
    std::vector<uint64_t> next(addresses_.size(), kNone);
    for (size_t i = addresses_.size(); i-- > 0;) {
      next[i] = std::min(first_after_[i], i + 1 < next.size() ? next[i + 1] : kNone);
    }
    // An address with no start of its own is held by the function of the
    // addresses before it, which is already in the table.
    for (size_t i = 0; i < addresses_.size(); ++i) {
      if (last_up_to_[i].found) symbols.add(last_up_to_[i].start, next[i], last_up_to_[i].name);
    }
    symbols.sort();
    return symbols;
  }

 private:
  static constexpr uint64_t kNone = std::numeric_limits<uint64_t>::max();
  struct Candidate {
    uint64_t start = 0;
    std::string name;
    bool found = false;
  };
  const std::vector<uint64_t>& addresses_;
  std::vector<Candidate> last_up_to_;  // [i]: the greatest start in (addresses[i-1], addresses[i]]
  std::vector<uint64_t> first_after_;  // [i]: the least start in (addresses[i], addresses[i+1]]
};

}  // namespace

SortedSymbols read_kallsyms(const std::string& path, std::string& warning, const std::vector<uint64_t>* wanted) {
  std::ifstream in(path);
  if (!in) {
    warning = "cannot read " + path + " (" + std::strerror(errno) +
              "): kernel samples show as [unknown]; report on the machine that recorded, as root or with "
              "kernel.kptr_restrict=0";
    return {};
  }
  SortedSymbols symbols;
  std::optional<FunctionsHolding> holding;
  if (wanted != nullptr) holding.emplace(*wanted);
  bool any_function = false;
  bool any_address = false;
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
    if (address == 0) continue;
    any_address = true;
    if (holding) {
      holding->offer(address, name);
    } else {
      symbols.add(address, 0, name);
    }
  }
  if (!any_address) {
    warning = any_function ? path +
                                 " shows every kernel address as 0 (kernel.kptr_restrict): kernel samples show as "
                                 "[unknown]; report as root or with sysctl kernel.kptr_restrict=0"
                           : path + " lists no kernel functions: kernel samples show as [unknown]";
    return {};
  }
  if (holding) return holding->table();
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
