#pragma once
// Text helpers every stage uses on names and file contents, all ASCII: the
// model, event and topology files are ASCII, and a locale must not change
// how a name compares.
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace topdown {

// `text` with A-Z turned into a-z.
std::string lowercase(std::string_view text);

// `text` without the white space (space, tab, CR, LF, VT, FF) around it.
// Inline: an import calls it for every field of every row.
inline std::string_view trim(std::string_view text) {
  auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

// The non-empty runs of `text` between any of the `separators` characters:
// the words of "a  b" for " ", the items of "x;;y;" for ";".
std::vector<std::string_view> split_words(std::string_view text, std::string_view separators = " \t");

// The items, each printed with fmt, with `separator` between them.
template <class Items>
std::string join(const Items& items, std::string_view separator) {
  return fmt::format("{}", fmt::join(items, separator));
}

}  // namespace topdown
