#pragma once
// What topdown promises about a refusal: one line that names the input.
#include <string>
#include <string_view>

#include "common/error.h"

namespace topdown::fuzz {

inline void check_refusal(const Error& error, std::string_view input_name) {
  const std::string_view message = error.what();
  if (message.find('\n') != std::string_view::npos) __builtin_trap();
  if (message.find(input_name) == std::string_view::npos) __builtin_trap();
}

}  // namespace topdown::fuzz
