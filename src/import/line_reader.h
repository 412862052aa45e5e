#pragma once
// Reads a file line by line through one reused buffer, so a file of any
// length is never held in memory; private to import.
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace topdown::import {

class LineReader {
 public:
  // Throws Error naming the file when it cannot be opened.
  explicit LineReader(const std::filesystem::path& path);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // The next line without its end of line ("\n" or "\r\n"), valid until the
  // next call; false at the end of the file. Throws Error on a read error or a
  // line longer than kMaxLine (not a text file of counts).
  bool next(std::string_view& line);
  // Whether the line last returned ended with a newline (a file cut off in
  // the middle of a line does not).
  bool line_complete() const { return complete_; }
  size_t line_number() const { return line_number_; }

  static constexpr size_t kMaxLine = 1 << 20;

 private:
  bool fill();  // reads more after the unread part; false at the end of the file

  std::string path_;
  int fd_ = -1;
  std::vector<char> buffer_;
  size_t begin_ = 0;  // first unread byte
  size_t end_ = 0;    // one past the last byte read
  bool eof_ = false;
  bool complete_ = true;
  size_t line_number_ = 0;
};

}  // namespace topdown::import
