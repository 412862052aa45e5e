#pragma once
// Where a report goes: stderr (so the workload's own output stays clean) or a
// file that appears whole or not at all.
#include <string>
#include <string_view>

namespace topdown::cli {

// Writes `text` to `path` as a ReportSink does. Throws Error naming the path
// and `option`, the option that chose it.
void write_file_atomically(const std::string& path, const std::string& text, std::string_view option = "-o");

// A report written piece by piece (one per interval): straight to stderr when
// `path` is empty. A regular file (or a new one) is written into a hidden
// temporary file beside it that replaces it on commit() and is removed when
// the sink goes away uncommitted or a signal ends topdown; through a
// symbolic link the file it points to is replaced, so the link stays a link.
// Anything else is written in place, as it comes: a device, a FIFO, or the
// file topdown's stdout or stderr already writes to (-o /dev/stdout, through
// that descriptor, keeping its offset and O_APPEND); replacing it would
// replace the device node, or lose the report to a name nobody reads.
// Throws Error naming the path and `option`, the option that chose it.
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
  [[noreturn]] void fail(int error) const;

  static constexpr size_t kFlushBytes = 1 << 18;
  std::string path_;
  std::string option_;
  std::string temporary_;  // empty when written in place
  std::string replaced_;   // the regular file the temporary file replaces
  int fd_ = -1;
  std::string pending_;  // written to the file at kFlushBytes and at commit
};

// Writes to stderr, or to `path` atomically when not empty.
void emit(const std::string& path, const std::string& text);

// True when colour escapes may be used on stderr.
bool stderr_wants_color();

}  // namespace topdown::cli
