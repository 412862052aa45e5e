#pragma once
// How a session reads its counter group: rdpmc through the mmap pages, or
// read() of the group. One small interface, chosen by measurement at open.
#include <memory>

#include "region/snapshot.h"
#include "topdown/region.hpp"

namespace topdown::region {

class CounterReader {
 public:
  virtual ~CounterReader() = default;
  // Reads every counter of the group; out.valid is false when they could not
  // be read (the reading is then left out of the region and counted as dropped).
  virtual void read(Snapshot& out) = 0;
  // Called once the reader is chosen, right before the first region.
  virtual void start() {}
  virtual Reader kind() const = 0;
};

}  // namespace topdown::region
