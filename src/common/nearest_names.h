#pragma once
// Which of the valid names a mistyped one was probably meant to be, for
// "did you mean ...?" in error messages.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace topdown {

// Those of `names` fewest single-letter edits (insert, delete, replace) away
// from `given`, in their order, when that is at most `most_edits`; empty
// otherwise. Case counts: callers lowercase when it should not.
std::vector<std::string> nearest_names(std::string_view given, const std::vector<std::string>& names,
                                       std::size_t most_edits);

}  // namespace topdown
