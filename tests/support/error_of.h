#pragma once
// The message of the topdown::Error an action throws, for tests that compare
// whole messages; empty when it throws none.
#include <functional>
#include <string>

#include "common/error.h"

namespace topdown::testing {

inline std::string error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

}  // namespace topdown::testing
