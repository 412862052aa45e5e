#pragma once
// Where a report goes: stderr (so the workload's own output stays clean) or a
// file that appears whole or not at all.
#include <string>

namespace topdown::cli {

// Writes `text` to `path` through a temporary file in the same directory and
// a rename, so readers never see a partial file. Throws Error naming the path.
void write_file_atomically(const std::string& path, const std::string& text);

// Writes to stderr, or to `path` atomically when not empty.
void emit(const std::string& path, const std::string& text);

// True when colour escapes may be used on stderr.
bool stderr_wants_color();

}  // namespace topdown::cli
