#pragma once
// Reading literal import files written to a temporary directory.
#include <string>
#include <vector>

#include "import/import.h"
#include "support/temp_tree.h"

namespace topdown::import::testing {

struct WholeFile {
  FileInfo info;
  Interval whole;
};

inline WholeFile read_whole(const std::string& text) {
  topdown::testing::TempTree tree;
  WholeFile result;
  int calls = 0;
  auto keep = [&](const Interval& interval, const FileInfo&) {
    result.whole = interval;
    ++calls;
  };
  result.info = read_file(tree.write("counts.txt", text), ReadOptions{}, keep);
  EXPECT_EQ(calls, 1);
  return result;
}

inline std::vector<Interval> read_intervals(const std::string& text) {
  topdown::testing::TempTree tree;
  std::vector<Interval> intervals;
  ReadOptions options;
  options.per_interval = true;
  read_file(tree.write("counts.txt", text), options,
            [&](const Interval& interval, const FileInfo&) { intervals.push_back(interval); });
  return intervals;
}

// The message of the Error that reading `text` throws ("" when none).
inline std::string read_error(const std::string& text) {
  try {
    read_whole(text);
  } catch (const Error& error) {
    return error.what();
  }
  return "";
}

inline double value_of(const Interval& interval, const std::string& event) {
  const counts::Count* count = interval.sample.find(event);
  EXPECT_NE(count, nullptr) << event;
  return count ? count->value : -1;
}

}  // namespace topdown::import::testing
