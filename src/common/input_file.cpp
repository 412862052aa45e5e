#include "common/input_file.h"

#include <cerrno>
#include <cstring>
#include <sstream>

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

std::optional<std::string> read_whole_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace topdown
