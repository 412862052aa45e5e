#include <charconv>
#include <fstream>

#include "common/error.h"
#include "cpu/cpu_info.h"

namespace topdown::cpu {
namespace {

[[noreturn]] void reject_list(std::string_view list, std::string_view what) {
  throw Error(std::string(what) + ": '" + std::string(list) + "' is not a list of indexes like 0-3,6");
}

int parse_index(std::string_view text, std::string_view list, std::string_view what) {
  int value = 0;
  const auto [end, status] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (status != std::errc() || end != text.data() + text.size() || value < 0) {
    reject_list(list, what);
  }
  return value;
}

}  // namespace

std::optional<std::string> read_first_line(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  return line;
}

std::vector<int> parse_index_list(std::string_view text, std::string_view what) {
  std::vector<int> indexes;
  std::string_view rest = text;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    const size_t dash = item.find('-');
    const int first = parse_index(item.substr(0, dash), text, what);
    const int last = dash == std::string_view::npos ? first : parse_index(item.substr(dash + 1), text, what);
    if (last < first) reject_list(text, what);
    for (int index = first; index <= last; ++index) indexes.push_back(index);
  }
  return indexes;
}

std::string format_index_list(const std::vector<int>& indexes) {
  std::string text;
  for (size_t first = 0; first < indexes.size();) {
    size_t last = first;
    while (last + 1 < indexes.size() && indexes[last + 1] == indexes[last] + 1) ++last;
    text += (text.empty() ? "" : ",") + std::to_string(indexes[first]);
    if (last > first) text += "-" + std::to_string(indexes[last]);
    first = last + 1;
  }
  return text;
}

}  // namespace topdown::cpu
