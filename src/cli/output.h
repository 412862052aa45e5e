#pragma once
// Where a report goes: stderr (so the workload's own output stays clean) or a
// file that appears whole or not at all.
#include <string>
#include <string_view>

namespace topdown::cli {

// Writes `text` to `path` through a temporary file in the same directory and
// a rename, so readers never see a partial file. Throws Error naming the path.
void write_file_atomically(const std::string& path, const std::string& text);

// A report written piece by piece (one per interval): straight to stderr when
// `path` is empty, else into a temporary file beside `path` that replaces it
// on commit() and is removed when the sink goes away uncommitted (a device
// or a pipe, such as /dev/null, is written in place instead). Throws
// Error naming the path and `option`, the option that chose it.
class ReportSink {
 public:
  explicit ReportSink(std::string path, std::string_view option = "-o");
  ~ReportSink();
  ReportSink(const ReportSink&) = delete;
  ReportSink& operator=(const ReportSink&) = delete;

  void write(std::string_view text);
  void commit();

 private:
  void flush();

  static constexpr size_t kFlushBytes = 1 << 18;
  std::string path_;
  std::string temporary_;
  int fd_ = -1;
  std::string pending_;  // written to the file at kFlushBytes and at commit
};

// Writes to stderr, or to `path` atomically when not empty.
void emit(const std::string& path, const std::string& text);

// True when colour escapes may be used on stderr.
bool stderr_wants_color();

}  // namespace topdown::cli
