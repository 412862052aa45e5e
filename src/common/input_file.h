#pragma once
// Opening a file the user named, with the one-line errors every reader gives.
#include <filesystem>
#include <fstream>
#include <string>

namespace topdown {

// `file` opened for reading. Throws Error naming `what` ("model file") and
// the file when it is a folder (`expected` says what to name instead) or
// cannot be opened (`remedy` says what to check).
std::ifstream open_input(const std::filesystem::path& file, const std::string& what, const std::string& expected,
                         const std::string& remedy);

}  // namespace topdown
