#include "common/error.h"

namespace topdown {

std::string SourceLocation::to_string() const {
  std::string text = file.empty() ? "<input>" : file;
  if (line > 0) {
    text += ':' + std::to_string(line);
    if (column > 0) text += ':' + std::to_string(column);
  }
  return text;
}

ParseError::ParseError(SourceLocation where, const std::string& what)
    : Error(where.to_string() + ": " + what), where_(std::move(where)) {}

}  // namespace topdown
