#pragma once
// Reading topdown's data file (`topdown record`, docs/record-format.md).
#include <string>

#include "recording/recording.h"

namespace topdown::recording {

// True when `path` starts with the data file's magic.
bool is_data_file(const std::string& path);

// The recording in `path`: samples with their per-stream deltas, mappings
// and task events in time order, the lost count. A file that ends inside a
// record (a killed record) gives what was read up to its last whole record,
// with `truncated` set and a warning. Throws Error naming the file for a
// file it cannot read at all: not a data file, another format version, a
// corrupt header or a record whose size or layout is impossible.
Recording read_data_file(const std::string& path);

}  // namespace topdown::recording
