#pragma once
// Opening a file the user named, with the one-line errors every reader gives.
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

namespace topdown {

// `file` opened for reading. Throws Error naming `what` ("model file") and
// the file when it is a folder (`expected` says what to name instead) or
// cannot be opened (`remedy` says what to check).
std::ifstream open_input(const std::filesystem::path& file, const std::string& what, const std::string& expected,
                         const std::string& remedy);

// The whole text of `file`, or nullopt when it cannot be opened (callers
// say why in their own words).
std::optional<std::string> read_whole_file(const std::filesystem::path& file);

}  // namespace topdown
