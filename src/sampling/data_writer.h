#pragma once
// The data file as it is written: straight to its final path, record by
// record, so that what is on disk is always a readable prefix. Private to
// the sampling stage.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "perf/fd.h"

namespace topdown::sampling {

class DataWriter {
 public:
  // Creates (or empties) `path`. Throws Error naming it when it cannot.
  explicit DataWriter(const std::string& path);

  // Appends the bytes; throws Error naming the file when the write fails
  // (a full disk).
  void write(std::span<const std::byte> first, std::span<const std::byte> second = {});
  void write(std::string_view bytes);
  uint64_t bytes() const { return bytes_; }

 private:
  std::string path_;
  perf::Fd fd_;
  uint64_t bytes_ = 0;
};

}  // namespace topdown::sampling
