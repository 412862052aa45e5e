#pragma once
// Small text helpers shared by the two file formats; private to import.
#include <optional>
#include <string>
#include <string_view>

#include "common/strings.h"

namespace topdown::import {

// The whole of `text` as a finite number >= 0; nullopt otherwise.
std::optional<double> parse_count(std::string_view text);

// Whether `text` is written as a number, valid as a count or not (-5, nan,
// inf, 1e400): such a field is a bad value, not a sign of another format.
bool looks_like_number(std::string_view text);

// `text` cut to fit in a one-line message, unprintable bytes escaped (printable()).
std::string excerpt(std::string_view text);

}  // namespace topdown::import
