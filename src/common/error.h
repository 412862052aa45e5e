#pragma once
// The one exception type topdown throws for user-facing failures. Its message
// is a single line that names the input and says what to do; the CLI prints it
// as "topdown: <message>" and exits non-zero.
#include <stdexcept>
#include <string>

namespace topdown {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Where in a text file something was found; used by parse errors of models,
// event tables and import files. Lines and columns count from 1.
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;

  std::string to_string() const;  // "file:line:col" (omits what is unknown)
};

// An Error that points into a file: the message starts with "file:line:col: ".
class ParseError : public Error {
 public:
  ParseError(SourceLocation where, const std::string& what);
  const SourceLocation& where() const { return where_; }

 private:
  SourceLocation where_;
};

}  // namespace topdown
