#include "common/strings.h"

#include <algorithm>

namespace topdown {

std::string lowercase(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return lower;
}

std::vector<std::string_view> split_words(std::string_view text, std::string_view separators) {
  std::vector<std::string_view> words;
  size_t at = text.find_first_not_of(separators);
  while (at != std::string_view::npos) {
    const size_t end = std::min(text.find_first_of(separators, at), text.size());
    words.push_back(text.substr(at, end - at));
    at = text.find_first_not_of(separators, end);
  }
  return words;
}

}  // namespace topdown
