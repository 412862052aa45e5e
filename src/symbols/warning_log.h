#pragma once
#include <string>
#include <unordered_set>
#include <vector>

namespace topdown::symbols {

// Problems in the order met, each said once.
class WarningLog {
 public:
  void add(const std::string& line) {
    if (seen_.insert(line).second) {
      lines_.push_back(line);
    }
  }
  const std::vector<std::string>& lines() const { return lines_; }

 private:
  std::vector<std::string> lines_;
  std::unordered_set<std::string> seen_;
};

}  // namespace topdown::symbols
