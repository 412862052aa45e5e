#include "cli/file_names.h"

namespace topdown::cli {

std::string suffixed_path(const std::string& path, const std::string& suffix) {
  const size_t name = path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1;
  const size_t dot = path.find('.', name + 1);
  if (dot == std::string::npos) return path + "-" + suffix;
  return path.substr(0, dot) + "-" + suffix + path.substr(dot);
}

}  // namespace topdown::cli
