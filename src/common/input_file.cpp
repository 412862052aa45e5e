#include "common/input_file.h"

#include <cerrno>
#include <cstring>

#include "common/error.h"

namespace topdown {

std::ifstream open_input(const std::filesystem::path& file, const std::string& what, const std::string& expected,
                         const std::string& remedy) {
  std::error_code ignored;
  if (std::filesystem::is_directory(file, ignored)) {
    throw Error(what + " " + file.string() + " is a directory; " + expected);
  }
  std::ifstream in(file);
  if (!in) throw Error("cannot open " + what + " " + file.string() + ": " + std::strerror(errno) + "; " + remedy);
  return in;
}

}  // namespace topdown
