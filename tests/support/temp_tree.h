#pragma once
// A directory tree in the temp dir for tests that read files (fake /sys,
// /proc, event tables); removed again when the test ends.
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

namespace topdown::testing {

class TempTree {
 public:
  TempTree() {
    static std::atomic<int> counter{0};
    root_ = std::filesystem::temp_directory_path() /
            ("topdown-test-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_);
  }
  ~TempTree() {
    std::error_code ignored;
    std::filesystem::remove_all(root_, ignored);
  }
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;

  const std::filesystem::path& root() const { return root_; }

  // Writes `text` to root/relative, creating the directories on the way.
  std::filesystem::path write(const std::string& relative, const std::string& text) const {
    const std::filesystem::path file = root_ / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << text;
    return file;
  }

  std::filesystem::path mkdir(const std::string& relative) const {
    std::filesystem::create_directories(root_ / relative);
    return root_ / relative;
  }

 private:
  std::filesystem::path root_;
};

}  // namespace topdown::testing
