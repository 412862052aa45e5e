#pragma once
// Counter values and scope answers chosen by name, so that the fuzzer steers
// them by editing names: zeros, signs, huge and tiny numbers, n/a, and values
// a reader must refuse (NaN, infinity).
#include <array>
#include <cstddef>
#include <functional>
#include <limits>
#include <optional>
#include <string_view>

namespace topdown::fuzz {

inline constexpr std::array<std::optional<double>, 14> kValues = {
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    3.0,
    4e9,
    1e308,
    -1e308,
    std::numeric_limits<double>::denorm_min(),
    std::numeric_limits<double>::max(),
    std::nullopt,
    std::numeric_limits<double>::quiet_NaN(),
    std::numeric_limits<double>::infinity(),
};

inline size_t name_hash(std::string_view name) { return std::hash<std::string_view>{}(name); }

inline std::optional<double> value_for(std::string_view name) { return kValues[name_hash(name) % kValues.size()]; }

}  // namespace topdown::fuzz
