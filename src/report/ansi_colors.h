#pragma once
// The terminal escapes the text reports colour with (when stderr is a
// terminal and --no-color is not given).
#include <string>

namespace topdown::report::ansi {

inline constexpr const char* kBold = "\033[1m";
inline constexpr const char* kRed = "\033[31m";
inline constexpr const char* kGreen = "\033[32m";
inline constexpr const char* kYellow = "\033[33m";
inline constexpr const char* kReset = "\033[0m";

// `text` in `code`'s colour when `color`, else as it is.
inline std::string painted(const std::string& text, const char* code, bool color) {
  return color ? std::string(code) + text + kReset : text;
}

}  // namespace topdown::report::ansi
